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
  /** The finished blocks' texts, made once each (piecesOf), so a memoized block compares in O(1). */
  texts: string[];
  /** Every GROUP finished blocks joined, once LOOSE newer blocks follow them. */
  groups: string[];
}

const CHECK = 32;

export function emptyCuts(): BlockCuts {
  return { bounds: [], searched: 0, check: '', texts: [], groups: [] };
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
    c.texts = [];
    c.groups = [];
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

/**
 * Blocks in a page are not free even when the browser skips laying them out: each one with
 * `content-visibility: auto` is watched for entering the viewport, and style and paint walk them
 * all. 2 MB of output is a thousand blocks, and measured in Chromium that watching alone took
 * 20 to 60 ms a frame. So the finished blocks are joined GROUP at a time (2 MB: about sixty
 * groups), except the LOOSE newest ones, which are the ones on screen while a stream is followed
 * and would otherwise be laid out again as one big group every GROUP blocks.
 */
export const GROUP = 16;
export const LOOSE = 4;

export interface Pieces {
  /** Joined finished blocks, oldest first. */
  groups: string[];
  /** The finished blocks after the groups; `first` is the index of the first of them. */
  blocks: string[];
  first: number;
  /** The open rest (possibly empty). */
  open: string;
}

/**
 * The text as groups, loose blocks and the open rest (together: the text), for `c` brought up to
 * date by updateCuts. Each block's and group's string is made once and then reused, so the work
 * per streamed frame follows the new blocks, not the whole text. Groups are joined copies rather
 * than slices: a slice would keep alive the whole text it was cut from at that moment.
 */
export function piecesOf(text: string, c: BlockCuts): Pieces {
  const n = c.bounds.length;
  for (let i = c.texts.length; i < n; i++) c.texts.push(text.slice(c.bounds[i - 1] ?? 0, c.bounds[i]));
  while ((c.groups.length + 1) * GROUP + LOOSE <= n) {
    const g = c.groups.length;
    c.groups.push(c.texts.slice(g * GROUP, (g + 1) * GROUP).join(''));
    // A grouped block's own string is not needed again.
    c.texts.fill('', g * GROUP, (g + 1) * GROUP);
  }
  const first = c.groups.length * GROUP;
  return { groups: c.groups, blocks: c.texts.slice(first), first, open: text.slice(c.bounds[n - 1] ?? 0) };
}
