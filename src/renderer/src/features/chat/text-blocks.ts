/**
 * Where PlainText cuts a text into blocks: at the first line end at least BLOCK characters into a
 * block, or after HARD characters when one line runs that long (so a giant line cannot defeat
 * the blocking). A cut depends only on the text before it, so while a text grows its earlier cuts
 * stay put, and each update looks only at characters it has not looked at before: the work per
 * streamed frame follows the new text, not the whole.
 */
export const BLOCK = 2048;
export const HARD = 16_384;

/** What one PlainText remembers between renders. */
export interface BlockCuts {
  /** Where each finished block ends (and the next begins). */
  bounds: number[];
  /** The open block has no line end from its BLOCK-th character up to here. */
  searched: number;
  /** The characters just before the furthest position relied on, to notice a replaced text. */
  check: string;
}

const CHECK = 32;

export function emptyCuts(): BlockCuts {
  return { bounds: [], searched: 0, check: '' };
}

function reach(c: BlockCuts): number {
  return Math.max(c.bounds[c.bounds.length - 1] ?? 0, c.searched);
}

/**
 * Brings `c` up to date for `text`. Text normally only grows; if it changed otherwise (the final
 * text replaced it, the cap trimmed it), the characters before the furthest position relied on
 * tell, without comparing the whole text, and the cuts start over.
 */
export function updateCuts(text: string, c: BlockCuts): void {
  const r = reach(c);
  if (text.length < r || text.slice(Math.max(0, r - CHECK), r) !== c.check) {
    c.bounds = [];
    c.searched = 0;
  }
  let start = c.bounds[c.bounds.length - 1] ?? 0;
  while (text.length - start > BLOCK) {
    const from = Math.max(start + BLOCK, c.searched);
    const to = Math.min(text.length, start + HARD);
    // Only the window can hold the cut: indexOf on the whole text would scan to its end.
    const i = from < to ? text.slice(from, to).indexOf('\n') : -1;
    let cut: number;
    if (i !== -1) cut = from + i + 1;
    else if (text.length >= start + HARD) cut = start + HARD;
    else {
      c.searched = to;
      break;
    }
    c.bounds.push(cut);
    c.searched = 0;
    start = cut;
  }
  const end = reach(c);
  c.check = text.slice(Math.max(0, end - CHECK), end);
}

/** The text as its blocks: the finished ones, then the open rest (possibly empty). */
export function blocksOf(text: string, c: BlockCuts): string[] {
  const out: string[] = [];
  let start = 0;
  for (const b of c.bounds) {
    out.push(text.slice(start, b));
    start = b;
  }
  out.push(text.slice(start));
  return out;
}
