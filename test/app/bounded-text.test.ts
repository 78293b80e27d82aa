import { describe, expect, it } from 'vitest';
import { BoundedText, KEEP_HEAD_CHARS, KEEP_TAIL_CHARS, omittedLine } from '../../src/shared/bounded-text';

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
    expect(omittedLine(extra)).toContain('123,457 characters of output not kept');
  });
});
