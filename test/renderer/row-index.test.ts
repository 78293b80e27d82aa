/**
 * The rows of a long output (features/chat/output/row-index.ts): lines, long lines cut into rows,
 * and an index extended as a stream appends, or trimmed by the page's text bound, that always
 * equals the index of the same text built from scratch.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS, splitBounded } from '../../src/shared/bounded-text';
import {
  emptyIndex,
  ROW_MAX_CHARS,
  rowCount,
  rowText,
  updateIndex,
  type RowIndex,
} from '../../src/renderer/src/features/chat/output/row-index';
import { unfence } from '../../src/renderer/src/features/chat/plain-fence';
import { appendCapped } from '../../src/renderer/src/stores/chat/text-cap';

/** The row starts an index holds. */
const startsOf = (index: RowIndex): number[] => Array.from(index.starts.subarray(0, index.n));

function rows(text: string): string[] {
  const index = updateIndex(emptyIndex(), text);
  return Array.from({ length: rowCount(index) }, (_, i) => rowText(text, index, i));
}

describe('row index', () => {
  it('has a row per line, without the newlines, and no empty row after a final newline', () => {
    expect(rows('a\nbb\n\nc\n')).toEqual(['a', 'bb', '', 'c']);
    expect(rows('a\nb')).toEqual(['a', 'b']);
    expect(rows('')).toEqual(['']);
  });

  it('cuts a line longer than a row into rows, so no row lays out megabytes', () => {
    const long = 'x'.repeat(ROW_MAX_CHARS * 2 + 5);
    expect(rows(`${long}\nend`).map((r) => r.length)).toEqual([ROW_MAX_CHARS, ROW_MAX_CHARS, 5, 3]);
  });

  it('extended chunk by chunk, it equals the index of the whole text', () => {
    const text = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? 'y'.repeat(4500) : String(i))).join('\n');
    const index = emptyIndex();
    for (let at = 0; at < text.length;) {
      const next = Math.min(text.length, at + 1 + ((at * 7919) % 5000));
      updateIndex(index, text.slice(0, next));
      at = next;
    }
    expect(startsOf(index)).toEqual(startsOf(updateIndex(emptyIndex(), text)));
  });

  it('follows the page bound trimming the kept end of a 7 MB stream, rows equal to a fresh index', () => {
    let text = '';
    const index = emptyIndex();
    let n = 1;
    let trims = 0;
    while (n < 1_000_000) {
      let chunk = '';
      for (let k = 0; k < 25_000; k++) chunk += `${n++}\n`;
      const before = splitBounded(text)?.omitted ?? 0;
      text = appendCapped(text, chunk);
      if ((splitBounded(text)?.omitted ?? 0) > before) trims++;
      updateIndex(index, text);
    }
    expect(text.length).toBeLessThanOrEqual(MAX_TEXT_CHARS + 100);
    expect(trims).toBeGreaterThan(20);
    expect(startsOf(index)).toEqual(startsOf(updateIndex(emptyIndex(), text)));
    const count = rowCount(index);
    expect(rowText(text, index, count - 1)).toBe(String(n - 1));
    expect(rowText(text, index, 0)).toBe('1');
  });

  it('follows a fenced 7 MB stream (the terminal output) by extending, never scanning it all again', () => {
    // The page shows the terminal's output without its opening fence line, so the bound's line
    // sits that many characters earlier than in the message's text. Each update adds fewer rows
    // than a scan checks its deadline after, so one given a deadline already passed completes
    // only if it scans just what came since: a full scan of megabytes would stop unfinished.
    let text = '````text\n';
    const index = emptyIndex();
    let n = 1;
    let trims = 0;
    let rescans = 0;
    while (n < 500_000) {
      let chunk = '';
      for (let k = 0; k < 1000; k++) chunk += `${n++}\n`;
      const before = splitBounded(text)?.omitted ?? 0;
      text = appendCapped(text, chunk);
      if ((splitBounded(text)?.omitted ?? 0) > before) trims++;
      const { body, cut } = unfence(text);
      updateIndex(index, body, performance.now() - 1, cut);
      if (!index.complete) {
        rescans++;
        updateIndex(index, body, Infinity, cut);
      }
    }
    expect(trims).toBeGreaterThan(10);
    expect(rescans).toBe(0);
    const { body, cut } = unfence(text);
    expect(startsOf(index)).toEqual(startsOf(updateIndex(emptyIndex(), body, Infinity, cut)));
    expect(rowText(body, index, rowCount(index) - 1)).toBe(String(n - 1));
  });

  it('with a deadline, a scan stops early and goes on where it stopped, to the same rows', () => {
    let text = '';
    for (let i = 0; i < 200_000; i++) text += `${i}\n`;
    const index = updateIndex(emptyIndex(), text, performance.now() - 1);
    expect(index.complete).toBe(false);
    // The unscanned rest is no row: nothing megabytes long is ever shown as one.
    expect(rowCount(index)).toBe(index.n - 1);
    let calls = 1;
    while (!index.complete) {
      updateIndex(index, text, performance.now() + 1);
      calls++;
    }
    expect(calls).toBeGreaterThan(1);
    expect(startsOf(index)).toEqual(startsOf(updateIndex(emptyIndex(), text)));
  });

  it('a different text (not an extension) is indexed afresh', () => {
    const index = updateIndex(emptyIndex(), 'one\ntwo\nthree');
    updateIndex(index, '```text\none\ntwo\nthree and more\n');
    expect(startsOf(index)).toEqual(startsOf(updateIndex(emptyIndex(), '```text\none\ntwo\nthree and more\n')));
  });
});
