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
} from '../../src/renderer/src/features/chat/output/row-index';
import { appendCapped } from '../../src/renderer/src/stores/chat/text-cap';

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
    expect(index.starts).toEqual(updateIndex(emptyIndex(), text).starts);
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
    expect(index.starts).toEqual(updateIndex(emptyIndex(), text).starts);
    const count = rowCount(index);
    expect(rowText(text, index, count - 1)).toBe(String(n - 1));
    expect(rowText(text, index, 0)).toBe('1');
  });

  it('with a deadline, a scan stops early and goes on where it stopped, to the same rows', () => {
    let text = '';
    for (let i = 0; i < 200_000; i++) text += `${i}\n`;
    const index = updateIndex(emptyIndex(), text, performance.now() - 1);
    expect(index.complete).toBe(false);
    // The unscanned rest is no row: nothing megabytes long is ever shown as one.
    expect(rowCount(index)).toBe(index.starts.length - 1);
    let calls = 1;
    while (!index.complete) {
      updateIndex(index, text, performance.now() + 1);
      calls++;
    }
    expect(calls).toBeGreaterThan(1);
    expect(index.starts).toEqual(updateIndex(emptyIndex(), text).starts);
  });

  it('a different text (not an extension) is indexed afresh', () => {
    const index = updateIndex(emptyIndex(), 'one\ntwo\nthree');
    updateIndex(index, '```text\none\ntwo\nthree and more\n');
    expect(index.starts).toEqual(updateIndex(emptyIndex(), '```text\none\ntwo\nthree and more\n').starts);
  });
});
