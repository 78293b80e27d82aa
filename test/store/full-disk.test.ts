/**
 * A full disk. On a real one — a 4 MiB tmpfs, mounted where this machine allows it (root or
 * CAP_SYS_ADMIN; skipped, and said so, elsewhere) — a refused write returns an `io_error` failure
 * instead of throwing, the app goes on, what was given to the store stays readable, nothing is
 * left behind, and once space is freed the retry writes it all, in order. SQLite's own size cap
 * (`max_page_count`, which fails writes with the same SQLITE_FULL) stands in for a disk that never
 * frees up, to check that closing the store then says what was lost; it runs everywhere.
 */
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore, type SaveState } from '../../src/main/assistant/store/store';
import type { ChatMessage } from '../../src/shared/contract';
import type { Outcome } from '../../src/shared/failures';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { filesIn, mountTmpfs, unmount } from './helpers';

const mnt = path.join(tmpDir('full-disk'), 'tmpfs');
const mounted = mountTmpfs(mnt, '4m');
if (!mounted)
  console.warn('full-disk.test: a tmpfs cannot be mounted here (not root); the real full-disk case is skipped');

afterAll(() => {
  if (mounted) unmount(mnt);
  cleanupFixtures();
});

const message = (i: number): ChatMessage => ({
  id: `m${i}`,
  role: 'user',
  createdAt: i,
  text: `message ${i} `.repeat(400),
});

/** Fills the file system holding `file` to the last byte. */
function fill(file: string): void {
  const chunk = Buffer.alloc(16 * 1024, 1);
  for (let i = 0; i < 100_000; i++) {
    try {
      appendFileSync(file, chunk);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      return;
    }
  }
  throw new Error(`${file}: the disk never filled`);
}

/** Writes messages from `from` until one is refused; returns the index of the refused one and its outcome. */
function writeUntilRefused(s: ConversationStore, from: number): { refused: number; outcome: Outcome } {
  for (let i = from; i < from + 5000; i++) {
    const outcome = s.putMessage('c', message(i));
    if (!outcome.ok) return { refused: i, outcome };
  }
  throw new Error('no write was refused');
}

describe('a full disk', () => {
  it.runIf(mounted)(
    'keeps the app running and the unsaved messages readable, leaves no file behind, and writes them once space is free',
    async () => {
      const file = path.join(mnt, 'conversations.sqlite');
      const s = await ConversationStore.open(file);
      const states: SaveState[] = [];
      s.onDidChangeSaveState((st) => states.push(st));
      s.create('c', 'On a small disk', 1);
      for (let i = 0; i < 20; i++) expect(s.putMessage('c', message(i))).toEqual({ ok: true });
      fill(path.join(mnt, 'hog'));

      const { refused, outcome } = writeUntilRefused(s, 20);
      expect(outcome).toEqual({
        ok: false,
        code: 'io_error',
        message: expect.stringContaining(`could not be saved to ${file} (database or disk is full)`),
      });
      expect(outcome.ok || outcome.message).not.toContain('\n');
      // More while the disk is full: each kept, in order, each refused with the same clear failure.
      for (let i = refused + 1; i < refused + 4; i++) expect(s.putMessage('c', message(i)).ok).toBe(false);
      expect(s.saveState).toEqual({ unsaved: 4, failure: expect.objectContaining({ code: 'io_error' }) });
      expect(states.at(-1)?.unsaved).toBe(4);
      const expected = Array.from({ length: refused + 4 }, (_, i) => `m${i}`);
      expect(s.get('c')?.messages.map((m) => m.id)).toEqual(expected);
      expect(s.list()).toEqual([expect.objectContaining({ id: 'c', messageCount: expected.length })]);
      expect(filesIn(mnt)).toEqual([
        'conversations.sqlite',
        'conversations.sqlite-shm',
        'conversations.sqlite-wal',
        'conversations.sqlite.owner',
        'hog',
      ]);

      rmSync(path.join(mnt, 'hog'));
      // The retry loop writes them without being asked.
      await expect.poll(() => s.saveState, { timeout: 40_000, interval: 100 }).toEqual({ unsaved: 0, failure: null });
      expect(states.at(-1)).toEqual({ unsaved: 0, failure: null });
      s.dispose();
      expect(filesIn(mnt)).toEqual(['conversations.sqlite']);

      const again = await ConversationStore.open(file);
      expect(again.get('c')?.messages.map((m) => m.id)).toEqual(expected);
      expect(again.get('c')?.messages.at(-1)?.text).toBe(message(refused + 3).text);
      again.dispose();
    },
  );

  it('that never frees up: closing the store reports, in one line, what could not be saved', async () => {
    const file = path.join(tmpDir('size-cap'), 'conversations.sqlite');
    const reports: string[] = [];
    const s = await ConversationStore.open(file, { maxPageCount: 80, report: (l) => reports.push(l) });
    s.create('c', 'Capped', 1);
    const { refused, outcome } = writeUntilRefused(s, 0);
    expect(outcome).toEqual(expect.objectContaining({ ok: false, code: 'io_error' }));
    expect(s.get('c')?.messages).toHaveLength(refused + 1);
    expect(s.flush().ok).toBe(false);
    s.dispose();
    expect(reports).toEqual([
      expect.stringMatching(
        /^1 unsaved change\(s\) to the conversations are lost: conversations could not be saved to .*\(database or disk is full\)/,
      ),
    ]);
    expect(reports[0]).not.toContain('\n');
    const again = await ConversationStore.open(file);
    expect(again.get('c')?.messages.map((m) => m.id)).toEqual(Array.from({ length: refused }, (_, i) => `m${i}`));
    again.dispose();
    expect(filesIn(path.dirname(file))).toEqual(['conversations.sqlite']);
  });
});
