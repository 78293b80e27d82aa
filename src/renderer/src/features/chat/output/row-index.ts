/**
 * Where each row of a long output starts, for the virtualized view (OutputLines.tsx): a row is a
 * line, and a line longer than ROW_MAX_CHARS is cut into rows of that many characters, so no row
 * costs the browser a layout of megabytes. Written by hand: the list library virtualizes rows of
 * known count, it does not find them in a string.
 *
 * The index is extended, not rebuilt: a stream only ever appends to a message's text (one scan of
 * what came since the last frame), except when the page's text bound (shared/bounded-text.ts)
 * drops a piece from the front of the kept end; then the rows of the kept beginning stand, the
 * rows of the kept end move back by what was dropped, and only the lines around the cut are found
 * again. Any other change (a different text) scans it all. A scan may be given a deadline: it
 * stops there and goes on from where it stopped at the next update, so 2 MB opened at once is
 * indexed over a few frames rather than in one long task.
 *
 * The text indexed may lack the bounded text's first characters (the terminal's output is shown
 * without its opening fence line): `cut` says how many, so the bound's line is looked for where
 * it is in the text shown. Looked for at the wrong place, every trim read as a new text and the
 * whole megabytes were scanned again, most frames of a long stream.
 */
import { findOmission, KEEP_HEAD_CHARS, omittedLine } from '../../../../../shared/bounded-text';

export const ROW_MAX_CHARS = 2000;
/** The characters compared to tell an extended text from another one. */
const TAIL_CHARS = 24;

export interface RowIndex {
  /**
   * Row starts, `starts[0]` to `starts[n - 1]`; the last one is the open row (the text after the
   * last newline, maybe empty), or, while the index is not complete, where its scan goes on. A
   * typed array grown by doubling: a stream adds hundreds of thousands of rows, and every trim
   * moves most of them back at once, which on a plain array was a copy of 300,000 boxed numbers
   * (7 ms) each time.
   */
  starts: Int32Array;
  n: number;
  /** The text indexed: its length, its last characters, and what the bound left out of it. */
  length: number;
  tail: string;
  omitted: number;
  /** Characters of the bounded text not in the text indexed, at its front (see the top). */
  cut: number;
  /** Whether the scan reached the end of the text. */
  complete: boolean;
  /**
   * Counts the times rows already found changed (a trim moved them, a different text replaced
   * them): until it changes, a row keeps its text while later rows are added.
   */
  epoch: number;
}

export function emptyIndex(): RowIndex {
  return { starts: new Int32Array(1024), n: 1, length: 0, tail: '', omitted: 0, cut: 0, complete: true, epoch: 0 };
}

function push(index: RowIndex, start: number): void {
  if (index.n === index.starts.length) {
    const grown = new Int32Array(index.starts.length * 2);
    grown.set(index.starts);
    index.starts = grown;
  }
  index.starts[index.n++] = start;
}

/**
 * Appends the starts of rows found from the last one on; false when `deadline` (a
 * `performance.now()` time) came first. Stops before a start at or past `until`.
 */
function scan(text: string, index: RowIndex, deadline = Infinity, until = Infinity): boolean {
  let rowStart = index.starts[index.n - 1] as number;
  for (let n = 1; ; n++) {
    if ((n & 1023) === 0 && performance.now() > deadline) return false;
    const nl = text.indexOf('\n', rowStart);
    const lineEnd = nl === -1 ? text.length : nl;
    while (lineEnd - rowStart > ROW_MAX_CHARS) {
      rowStart += ROW_MAX_CHARS;
      if (rowStart >= until) return true;
      push(index, rowStart);
    }
    if (nl === -1) return true;
    rowStart = nl + 1;
    if (rowStart >= until) return true;
    push(index, rowStart);
  }
}

/** The index of the last row start at or before `at`. */
function lastStartAtOrBefore(index: RowIndex, at: number): number {
  const starts = index.starts;
  let lo = 0;
  let hi = index.n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The bound dropped `omitted - index.omitted` characters from the front of the kept end: the
 * beginning's rows stand, the end's rows move back, and the lines between are found again.
 */
function shift(index: RowIndex, text: string, omitted: number): void {
  const headEnd = KEEP_HEAD_CHARS - index.cut;
  const oldTail = headEnd + (index.omitted > 0 ? omittedLine(index.omitted).length : 0);
  const newTail = headEnd + omittedLine(omitted).length;
  const dropped = omitted - index.omitted;
  const delta = newTail - oldTail - dropped;
  const headRows = lastStartAtOrBefore(index, headEnd) + 1;
  // The first row kept after the cut that begins a line (not a long line's later piece).
  let j = lastStartAtOrBefore(index, oldTail + dropped) + 1;
  while (j < index.n && text.charCodeAt((index.starts[j] as number) + delta - 1) !== 10) j++;
  if (j >= index.n) {
    index.n = headRows;
    return;
  }
  // The rows between the beginning's last one and the first one kept, found apart, then the
  // kept rows moved back behind them.
  const between: RowIndex = { ...emptyIndex(), starts: new Int32Array(16) };
  between.starts[0] = index.starts[headRows - 1] as number;
  scan(text, between, Infinity, (index.starts[j] as number) + delta);
  const found = between.n - 1;
  const kept = index.n - j;
  const n = headRows + found + kept;
  if (n > index.starts.length) {
    const grown = new Int32Array(Math.max(n, index.starts.length * 2));
    grown.set(index.starts.subarray(0, index.n));
    index.starts = grown;
  }
  const starts = index.starts;
  starts.copyWithin(headRows + found, j, index.n);
  for (let i = headRows + found; i < n; i++) starts[i] = (starts[i] as number) + delta;
  starts.set(between.starts.subarray(1, between.n), headRows);
  index.n = n;
}

/**
 * `index` brought up to `text` (changed in place, and returned); `cut` as at the top. With a
 * deadline, the scan may stop early (`complete` false) and goes on at the next call.
 */
export function updateIndex(index: RowIndex, text: string, deadline = Infinity, cut = 0): RowIndex {
  const omitted = findOmission(text, KEEP_HEAD_CHARS - cut)?.omitted ?? 0;
  const sameCut = cut === index.cut;
  const appended =
    sameCut &&
    text.length >= index.length &&
    omitted === index.omitted &&
    text.slice(index.length - index.tail.length, index.length) === index.tail;
  if (!appended) {
    if (sameCut && omitted > index.omitted && index.length > KEEP_HEAD_CHARS - cut) shift(index, text, omitted);
    else index.n = 1;
    index.epoch++;
  }
  index.cut = cut;
  index.length = text.length;
  index.tail = text.slice(-TAIL_CHARS);
  index.omitted = omitted;
  index.complete = scan(text, index, deadline);
  return index;
}

/** How many rows to show: an empty open row after a final newline is not one, nor an unscanned rest. */
export function rowCount(index: RowIndex): number {
  if (!index.complete) return index.n - 1;
  const open = index.starts[index.n - 1] as number;
  return open === index.length && index.n > 1 ? index.n - 1 : index.n;
}

/** Row `i`'s text, without its newline. */
export function rowText(text: string, index: RowIndex, i: number): string {
  const start = index.starts[i] as number;
  if (i + 1 >= index.n) return text.slice(start);
  const next = index.starts[i + 1] as number;
  return text.slice(start, text.charCodeAt(next - 1) === 10 ? next - 1 : next);
}
