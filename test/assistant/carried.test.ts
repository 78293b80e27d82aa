/**
 * The check behind "results are data" (loop/carried.ts), against the dresses the second red team
 * put on a carried secret to get it past (C02–C06): upper-cased, a zero-width space every few
 * characters, split over an array's items, reversed, base64, hex, URL-encoded, look-alike
 * (fullwidth) letters; and a copy of an error result's words (C08). Each is still found, named
 * with its source, its excerpt as it was sent; what the person wrote themselves still is not.
 */
import { describe, expect, it } from 'vitest';
import { carriedInto } from '../../src/main/assistant/loop/carried';
import type { ChatMessage } from '../../src/shared/contract';

const SECRET = 'OPENAI_API_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a';

function message(m: Partial<ChatMessage>): ChatMessage {
  return { id: `m-${Math.random()}`, role: 'plugin', createdAt: 0, text: '', ...m } as ChatMessage;
}

const read = message({ pluginId: 'files', tool: 'read', text: `# keys\n${SECRET}\n`, status: 'done' });
const conversation =
  (...more: ChatMessage[]) =>
  () => [read, ...more];
const zwsp = (s: string) => s.replace(/(.{5})/g, '$1\u200B');
const fullwidth = (s: string) =>
  s.replace(/[a-z0-9]/gi, (c) => String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0));

describe('a carried result, however it is dressed', () => {
  const dresses: Array<[string, unknown]> = [
    ['as it is', { text: `As the file asked: ${SECRET}` }],
    ['upper-cased', { text: SECRET.toUpperCase() }],
    ['with a zero-width space every five characters', { text: zwsp(SECRET) }],
    ['split with new lines', { text: SECRET.replace(/(.{20})/g, '$1\n') }],
    ['split over an array’s items', { parts: SECRET.match(/.{1,10}/g) }],
    ['reversed', { text: [...SECRET].reverse().join('') }],
    ['in base64', { text: Buffer.from(SECRET).toString('base64') }],
    ['in hex', { text: Buffer.from(SECRET).toString('hex') }],
    ['URL-encoded', { text: encodeURIComponent(SECRET).replace(/-/g, '%2D') }],
    ['in fullwidth letters', { text: fullwidth(SECRET) }],
  ];
  for (const [how, args] of dresses)
    it(`is found ${how}, naming its source`, () => {
      const c = carriedInto(args, 'sink', conversation());
      expect(c).toMatchObject({ plugin: 'files', tool: 'read', messageId: read.id });
      expect(c!.chars).toBeGreaterThanOrEqual(40);
    });

  it('shows the excerpt as it was sent, not folded', () => {
    expect(carriedInto({ text: `As the file asked: ${SECRET}` }, 'sink', conversation())?.excerpt).toContain(
      'sk-live-4f9a8b7c',
    );
  });

  it('is found in an error result’s words too (C08)', () => {
    const failed = message({
      pluginId: 'vault',
      tool: 'get',
      status: 'error',
      failure: { ok: false, code: 'plugin_error', message: `cannot open: ${SECRET}` },
    });
    const c = carriedInto({ text: SECRET.toLowerCase() }, 'sink', () => [failed]);
    expect(c).toMatchObject({ plugin: 'vault', tool: 'get' });
  });

  it('is not held for text the person wrote themselves, nor for a plugin’s own result', () => {
    const mine = message({ role: 'user', text: `Note this: ${SECRET}` });
    expect(carriedInto({ text: SECRET.toUpperCase() }, 'sink', conversation(mine))).toBeNull();
    expect(carriedInto({ text: SECRET }, 'files', conversation())).toBeNull();
    expect(
      carriedInto({ text: 'A short note of my own, nothing copied from anywhere at all.' }, 'sink', conversation()),
    ).toBeNull();
  });
});
