import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK,
  blocksOf,
  emptyCuts,
  GROUP,
  HARD,
  LOOSE,
  piecesOf,
  updateCuts,
} from '../../src/renderer/src/features/chat/text-blocks';

function split(text: string): string[] {
  const c = emptyCuts();
  updateCuts(text, c);
  return blocksOf(text, c);
}

/** Plugin-like output: lines of varied length, now and then one far longer than a block. */
const output = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 300 }) },
      { weight: 1, arbitrary: fc.integer({ min: BLOCK, max: 3 * HARD }) },
    ),
    { maxLength: 120 },
  )
  .map((lengths) => lengths.map((n, i) => `${String.fromCharCode(97 + (i % 26)).repeat(n)}\n`).join(''));

describe('PlainText block cuts', () => {
  it('give back exactly the text, cut at line ends, in blocks neither tiny nor huge', () => {
    fc.assert(
      fc.property(output, (text) => {
        const blocks = split(text);
        expect(blocks.join('')).toBe(text);
        for (const b of blocks.slice(0, -1)) {
          expect(b.length).toBeGreaterThan(BLOCK);
          expect(b.length).toBeLessThanOrEqual(HARD);
          // A block ends a line, unless one line ran on for HARD characters.
          if (!b.endsWith('\n')) expect(b.length).toBe(HARD);
        }
        expect(blocks[blocks.length - 1]!.length).toBeLessThanOrEqual(HARD);
      }),
      { numRuns: 60 },
    );
  });

  it('stay where they are while the text streams in, whatever the pieces', () => {
    fc.assert(
      fc.property(output, fc.array(fc.nat(), { maxLength: 40 }), (text, at) => {
        const points = [...new Set(at.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
        const c = emptyCuts();
        let before: number[] = [];
        for (const p of [...points, text.length]) {
          updateCuts(text.slice(0, p), c);
          // Earlier cuts never move: the blocks already on screen are not re-laid out.
          expect(c.bounds.slice(0, before.length)).toEqual(before);
          before = [...c.bounds];
        }
        const whole = emptyCuts();
        updateCuts(text, whole);
        expect(c.bounds).toEqual(whole.bounds);
      }),
      { numRuns: 60 },
    );
  });

  it('cut one endless line every HARD characters', () => {
    const text = 'x'.repeat(5 * HARD + 10);
    const blocks = split(text);
    expect(blocks.map((b) => b.length)).toEqual([HARD, HARD, HARD, HARD, HARD, 10]);
  });

  it('start over when the text is replaced rather than extended', () => {
    const c = emptyCuts();
    const first = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join('');
    updateCuts(first, c);
    expect(c.bounds.length).toBeGreaterThan(0);
    const replaced = Array.from({ length: 300 }, (_, i) => `${'y'.repeat(i % 50)}\n`).join('');
    updateCuts(replaced, c);
    const fresh = emptyCuts();
    updateCuts(replaced, fresh);
    expect(c.bounds).toEqual(fresh.bounds);
    expect(blocksOf(replaced, c).join('')).toBe(replaced);
  });

  it('find a line end arriving in a later piece of a long line', () => {
    const c = emptyCuts();
    const head = 'z'.repeat(BLOCK + 500);
    updateCuts(head, c);
    expect(c.bounds).toEqual([]);
    updateCuts(`${head}${'z'.repeat(100)}\nmore`, c);
    expect(c.bounds).toEqual([BLOCK + 601]);
  });
});

describe('PlainText groups', () => {
  const lines = (from: number, to: number): string =>
    Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('');

  it('give back exactly the text while it streams, with a bounded number of loose blocks', () => {
    const whole = lines(0, 60_000);
    const c = emptyCuts();
    for (let end = 0; end <= whole.length; end += 7919) {
      const text = whole.slice(0, end);
      updateCuts(text, c);
      const p = piecesOf(text, c);
      expect([...p.groups, ...p.blocks, p.open].join('')).toBe(text);
      expect(p.blocks.length).toBeLessThan(GROUP + LOOSE);
      expect(p.first).toBe(p.groups.length * GROUP);
    }
    updateCuts(whole, c);
    const p = piecesOf(whole, c);
    // About 600 KB: a few dozen elements, not hundreds of blocks.
    expect(p.groups.length + p.blocks.length + 1).toBeLessThan(c.bounds.length / 4);
  });

  it('stay put from one frame to the next, and start over for a replaced text', () => {
    const c = emptyCuts();
    const a = lines(0, 20_000);
    updateCuts(a, c);
    const before = [...piecesOf(a, c).groups];
    expect(before.length).toBeGreaterThan(0);
    const longer = a + lines(20_000, 20_100);
    updateCuts(longer, c);
    const after = piecesOf(longer, c);
    expect(after.groups.slice(0, before.length)).toEqual(before);
    const other = lines(5, 9000);
    updateCuts(other, c);
    const p = piecesOf(other, c);
    expect([...p.groups, ...p.blocks, p.open].join('')).toBe(other);
  });
});
