/**
 * A live message's text on its way to the UI (assistant/live-messages.ts): however much piles up
 * while the event loop is busy, it goes out as stream events of at most STREAM_EVENT_MAX_CHARS,
 * never between the halves of a surrogate pair, which joined are the text, in order, and equal
 * the message's final text. A real store on a real SQLite file.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveMessages, STREAM_EVENT_MAX_CHARS } from '../../src/main/assistant/live-messages';
import { ConversationStore } from '../../src/main/assistant/store/store';
import type { ChatMessage, TurnEvent } from '../../src/shared/contract';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(() => cleanupFixtures());

describe('a live message streaming out', () => {
  it('goes out in pieces no longer than the limit that join to the text, pairs whole', async () => {
    const store = await ConversationStore.open(path.join(tmpDir('live-messages'), 'conversations.sqlite'));
    store.create('c', 'Stream', 1);
    const events: TurnEvent[] = [];
    const live = new LiveMessages(store, { turn: (e) => events.push(e), ended: () => {} });
    const m = live.start('c', {
      id: 'm',
      role: 'plugin',
      text: '',
      status: 'streaming',
      turnId: 't',
      createdAt: 1,
    } as ChatMessage);
    // The first append goes out at once; the rest piles up as it would behind a busy event loop,
    // with a surrogate pair (an emoji) straddling where a piece would end.
    live.append(m, 'first\n');
    const big = `${'x'.repeat(STREAM_EVENT_MAX_CHARS - 1)}😀${'y'.repeat(3 * STREAM_EVENT_MAX_CHARS)}`;
    live.append(m, big);
    live.finish(m, { status: 'done' });

    const pieces = events.flatMap((e) => (e.type === 'stream' ? [e.text] : []));
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(STREAM_EVENT_MAX_CHARS);
      // No lone half of a pair at either end.
      expect(p.charCodeAt(p.length - 1) & 0xfc00).not.toBe(0xd800);
      expect(p.charCodeAt(0) & 0xfc00).not.toBe(0xdc00);
    }
    expect(pieces.join('')).toBe(`first\n${big}`);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'end', message: { status: 'done', text: `first\n${big}` } });
    live.dispose();
    store.dispose();
  });
});
