/**
 * An acknowledged message survives a kill -9. A real child process writes messages (some of
 * 40 KB, so that WAL checkpoints happen along the way) and prints an acknowledgement after each
 * putMessage returns; it is SIGKILLed at a random point, three times over on the same file, and
 * every message it acknowledged must be in the file afterwards, with its text.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/main/assistant/store/store';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { startChild } from './helpers';
import { messageText } from './texts';

afterAll(() => cleanupFixtures());

describe('kill -9 while writing', () => {
  it('loses no acknowledged message', async () => {
    const file = path.join(tmpDir('kill'), 'conversations.sqlite');
    const acked: string[] = [];
    for (const round of ['a', 'b', 'c']) {
      const child = startChild(['write', file, '100000', round]);
      const killAt = 50 + Math.floor(Math.random() * 1500);
      try {
        await child.waitFor((l) => l.filter((x) => x.startsWith('ack ')).length >= killAt, 60_000);
        child.proc.kill('SIGKILL');
        const { signal } = await child.closed(10_000);
        expect(signal).toBe('SIGKILL');
      } finally {
        child.proc.kill('SIGKILL');
      }
      // Every ack the child printed before it died, including those still in the pipe.
      acked.push(...child.lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)));
    }
    const s = await ConversationStore.open(file);
    try {
      const stored = new Map(s.get('c')?.messages.map((m) => [m.id, m.text]));
      const missing = acked.filter((id) => stored.get(id) !== messageText(id));
      expect({ acked: acked.length, missing }).toEqual({ acked: acked.length, missing: [] });
      expect(acked.length).toBeGreaterThanOrEqual(150);
    } finally {
      s.dispose();
    }
  });
});
