/**
 * A damaged conversations file (a bad header, cut short, garbage inside, not a database at all)
 * must not stop Plugboard from starting: it is moved aside, byte for byte, the notice names both
 * files, and an empty store starts in its place. Real files, damaged the way disks and people do.
 */
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/main/assistant/store/store';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { filesIn } from './helpers';

afterAll(() => cleanupFixtures());

/** A store with a few conversations, closed. */
async function goodStore(): Promise<string> {
  const file = path.join(tmpDir('recovery'), 'conversations.sqlite');
  const s = await ConversationStore.open(file);
  for (let c = 0; c < 5; c++) {
    s.create(`c${c}`, `Conversation ${c}`, c);
    for (let m = 0; m < 40; m++)
      s.putMessage(`c${c}`, { id: `c${c}-m${m}`, role: 'user', createdAt: m, text: `message ${m} `.repeat(100) });
  }
  s.dispose();
  return file;
}

const damages: Record<string, (file: string) => void> = {
  'a bad header': (file) => {
    const b = readFileSync(file);
    b.write('SQLite format 2', 0);
    writeFileSync(file, b);
  },
  'a file cut short': (file) => truncateSync(file, Math.floor(readFileSync(file).length / 3)),
  'garbage over its pages': (file) => {
    const b = readFileSync(file);
    b.fill(0x5a, 4096, 4096 * 6);
    writeFileSync(file, b);
  },
  'not a database at all': (file) => writeFileSync(file, 'conversations? '.repeat(500)),
};

describe('a damaged conversations file', () => {
  for (const [what, damage] of Object.entries(damages)) {
    it(`with ${what} is moved aside, named, and a fresh store starts`, async () => {
      const file = await goodStore();
      damage(file);
      const damaged = readFileSync(file);
      const notices: string[] = [];
      const s = await ConversationStore.open(file, { report: (l) => notices.push(l) });
      const asideName = filesIn(path.dirname(file)).find((f) => f.startsWith('conversations.sqlite.corrupt-'));
      expect(asideName).toMatch(/^conversations\.sqlite\.corrupt-\d{8}T\d{6}Z$/);
      const aside = path.join(path.dirname(file), asideName as string);
      expect(notices).toHaveLength(1);
      expect(notices[0]).not.toContain('\n');
      expect(notices[0]).toContain(file);
      expect(notices[0]).toContain(aside);
      expect(readFileSync(aside).equals(damaged)).toBe(true);
      expect(s.list()).toEqual([]);
      expect(s.create('new', 'After the damage', 1)).toEqual({ ok: true });
      s.dispose();
      const again = await ConversationStore.open(file, { report: (l) => notices.push(l) });
      expect(again.list().map((c) => c.id)).toEqual(['new']);
      again.dispose();
      expect(notices).toHaveLength(1);
      expect(filesIn(path.dirname(file))).toEqual(['conversations.sqlite', asideName]);
    });
  }

  it('keeps a WAL with the file it belongs to', async () => {
    const file = await goodStore();
    writeFileSync(file, 'not a database');
    writeFileSync(`${file}-wal`, 'the journal of the file that was');
    const s = await ConversationStore.open(file, { report: () => {} });
    s.dispose();
    const aside = filesIn(path.dirname(file)).find((f) => f.endsWith('-wal')) as string;
    expect(aside).toMatch(/^conversations\.sqlite\.corrupt-\d{8}T\d{6}Z-wal$/);
    expect(readFileSync(path.join(path.dirname(file), aside), 'utf8')).toBe('the journal of the file that was');
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('that an older version left half-written on a full disk (its .tmp) is removed', async () => {
    const file = await goodStore();
    writeFileSync(`${file}.4242.tmp`, Buffer.alloc(1024 * 1024));
    writeFileSync(path.join(path.dirname(file), 'notes.4242.tmp'), 'not ours');
    const s = await ConversationStore.open(file);
    expect(s.list()).toHaveLength(5);
    s.dispose();
    expect(filesIn(path.dirname(file))).toEqual(['conversations.sqlite', 'notes.4242.tmp']);
  });
});
