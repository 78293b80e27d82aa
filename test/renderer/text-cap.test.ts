import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { appendCapped, withCappedText } from '../../src/renderer/src/stores/chat/text-cap';
import {
  KEEP_HEAD_CHARS as HEAD,
  MAX_TEXT_CHARS as TEXT_MAX,
  omittedLine as omissionLine,
} from '../../src/shared/bounded-text';

const LINE = /\n… \[(\d+) characters of output not kept\] …\n/;

/** Numbered lines, so any piece of the text tells where in the stream it came from. */
function lines(from: number, count: number): string {
  let out = '';
  for (let i = from; i < from + count; i++) out += `line ${String(i).padStart(7, '0')}\n`;
  return out;
}

describe('the text cap', () => {
  it('leaves a text within the cap as it is', () => {
    const text = lines(0, 1000);
    expect(appendCapped(text, 'more')).toBe(`${text}more`);
    const full = 'a'.repeat(TEXT_MAX - 3);
    expect(appendCapped(full, 'bcd')).toBe(`${full}bcd`);
  });

  it('keeps the head, a line saying how much was left out, and the end, once a text would pass it', () => {
    const whole = lines(0, 200_000); // 2.6 million characters
    const text = appendCapped('', whole);
    expect(text.length).toBeLessThanOrEqual(TEXT_MAX + omissionLine(whole.length).length);
    expect(text.slice(0, HEAD)).toBe(whole.slice(0, HEAD));
    const m = LINE.exec(text);
    expect(m?.index).toBe(HEAD);
    const tail = text.slice(HEAD + (m?.[0].length ?? 0));
    expect(whole.endsWith(tail)).toBe(true);
    expect(HEAD + Number(m?.[1]) + tail.length).toBe(whole.length);
    expect(tail.length).toBeGreaterThan(900_000);
  });

  it('stays bounded and counts exactly what it left out while a stream goes on and on', () => {
    let text = '';
    let streamed = '';
    for (let i = 0; i < 400; i++) {
      const piece = lines(i * 1000, 1000);
      streamed += piece;
      text = appendCapped(text, piece);
      expect(text.length).toBeLessThanOrEqual(TEXT_MAX + omissionLine(streamed.length).length);
    }
    const m = LINE.exec(text);
    const tail = text.slice((m?.index ?? 0) + (m?.[0].length ?? 0));
    expect(text.slice(0, HEAD)).toBe(streamed.slice(0, HEAD));
    expect(streamed.endsWith(tail)).toBe(true);
    expect(HEAD + Number(m?.[1]) + tail.length).toBe(streamed.length);
    // Only one such line, however many times the tail was trimmed.
    expect(text.split('characters of output not kept').length).toBe(2);
  });

  it('goes on from a text the server already capped', () => {
    const server = `${'h'.repeat(HEAD)}${omissionLine(5000)}${'t'.repeat(TEXT_MAX - HEAD)}`;
    const text = appendCapped(server, 'new');
    expect(text.endsWith('tnew')).toBe(true);
    const m = LINE.exec(text);
    const tail = text.slice((m?.index ?? 0) + (m?.[0].length ?? 0));
    expect(Number(m?.[1]) + tail.length).toBe(5000 + TEXT_MAX - HEAD + 3);
  });

  it('does not start the kept end in the middle of a character outside the BMP', () => {
    // The odd character at the end puts the plain cut on the second half of a pair.
    const whole = `${'😀'.repeat(TEXT_MAX)}!`;
    const text = appendCapped('', whole);
    const m = LINE.exec(text);
    const tail = text.slice((m?.index ?? 0) + (m?.[0].length ?? 0));
    expect(tail.startsWith('😀')).toBe(true);
    expect(tail.endsWith('😀!')).toBe(true);
    expect(HEAD + Number(m?.[1]) + tail.length).toBe(whole.length);
  });

  it('holds a whole message that arrives too long (a final text, a snapshot) to the same cap', () => {
    const short: ChatMessage = { id: 'm', role: 'plugin', createdAt: 1, text: 'fine' };
    expect(withCappedText(short)).toBe(short);
    const long = withCappedText({ ...short, text: lines(0, 300_000) });
    expect(long.text.length).toBeLessThanOrEqual(TEXT_MAX + omissionLine(3_900_000).length);
    expect(LINE.exec(long.text)?.index).toBe(HEAD);
    // Already capped, it stays as it is.
    expect(withCappedText(long).text).toBe(long.text);
  });
});
