import { describe, expect, it } from 'vitest';
import {
  appendBounded,
  BoundedText,
  KEEP_HEAD_CHARS,
  KEEP_TAIL_CHARS,
  MAX_TEXT_CHARS,
  omittedLine,
  splitBounded,
} from '../../src/shared/bounded-text';

/** A text whose every position is recognisable: digits cycling with the index. */
function text(n: number, from = 0): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += String(i % 10);
  return s;
}

describe('bounded message text', () => {
  it('keeps everything up to the cap', () => {
    const b = new BoundedText();
    const all = text(KEEP_HEAD_CHARS + KEEP_TAIL_CHARS);
    for (let i = 0; i < all.length; i += 4096) b.append(all.slice(i, i + 4096));
    expect(b.toString()).toBe(all);
    expect(b.omittedChars).toBe(0);
  });

  it('past the cap keeps the first and the last MiB, says how much is missing, and ignores chunking', () => {
    const extra = 123_457;
    const all = text(KEEP_HEAD_CHARS + KEEP_TAIL_CHARS + extra);
    const expected = all.slice(0, KEEP_HEAD_CHARS) + omittedLine(extra) + all.slice(all.length - KEEP_TAIL_CHARS);
    for (const size of [7, 64, 4096, 1_000_003]) {
      const b = new BoundedText();
      for (let i = 0; i < all.length; i += size) b.append(all.slice(i, i + size));
      expect(b.omittedChars).toBe(extra);
      expect(b.toString() === expected).toBe(true);
    }
    expect(omittedLine(extra)).toContain('[123457 characters of output not kept]');
  });

  it('is taken as it is by the page, which holds text as strings, and goes on from there', () => {
    const b = new BoundedText(text(MAX_TEXT_CHARS + 5000));
    const kept = b.toString();
    expect(splitBounded(kept)).toMatchObject({ omitted: 5000 });
    expect(appendBounded(kept, '')).toBe(kept);
    const more = appendBounded(kept, 'next');
    expect(more.endsWith('next')).toBe(true);
    expect(splitBounded(more)).toMatchObject({ omitted: 5004 });
  });

  it('never keeps an end that starts with half a character, however the chunks split it', () => {
    const all = '😀'.repeat(MAX_TEXT_CHARS / 2) + 'x😀';
    for (const size of [3, 4096, 1_000_001]) {
      const b = new BoundedText();
      for (let i = 0; i < all.length; i += size) b.append(all.slice(i, i + size));
      const tail = splitBounded(b.toString())?.tail ?? '';
      expect(tail.startsWith('😀')).toBe(true);
      expect(tail.endsWith('x😀')).toBe(true);
    }
  });
});
