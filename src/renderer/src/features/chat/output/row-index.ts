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
 */
import { KEEP_HEAD_CHARS, omittedLine, splitBounded } from '../../../../../shared/bounded-text';

export const ROW_MAX_CHARS = 2000;
/** The characters compared to tell an extended text from another one. */
const TAIL_CHARS = 24;

export interface RowIndex {
  /**
   * Row starts; the last one is the open row (the text after the last newline, maybe empty), or,
   * while the index is not complete, where its scan goes on.
   */
  starts: number[];
  /** The text indexed: its length, its last characters, and what the bound left out of it. */
  length: number;
  tail: string;
  omitted: number;
  /** Whether the scan reached the end of the text. */
  complete: boolean;
}

export function emptyIndex(): RowIndex {
  return { starts: [0], length: 0, tail: '', omitted: 0, complete: true };
}

/**
 * Appends the starts of rows found from the last one on; false when `deadline` (a
 * `performance.now()` time) came first. Stops before a start at or past `until`.
 */
function scan(text: string, starts: number[], deadline = Infinity, until = Infinity): boolean {
  let rowStart = starts[starts.length - 1] as number;
  for (let n = 1; ; n++) {
    if ((n & 1023) === 0 && performance.now() > deadline) return false;
    const nl = text.indexOf('\n', rowStart);
    const lineEnd = nl === -1 ? text.length : nl;
    while (lineEnd - rowStart > ROW_MAX_CHARS) {
      rowStart += ROW_MAX_CHARS;
      if (rowStart >= until) return true;
      starts.push(rowStart);
    }
    if (nl === -1) return true;
    rowStart = nl + 1;
    if (rowStart >= until) return true;
    starts.push(rowStart);
  }
}

/** The index of the last row start at or before `at`. */
function lastStartAtOrBefore(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
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
  const starts = index.starts;
  const oldTail = KEEP_HEAD_CHARS + (index.omitted > 0 ? omittedLine(index.omitted).length : 0);
  const newTail = KEEP_HEAD_CHARS + omittedLine(omitted).length;
  const dropped = omitted - index.omitted;
  const delta = newTail - oldTail - dropped;
  const head = starts.slice(0, lastStartAtOrBefore(starts, KEEP_HEAD_CHARS) + 1);
  // The first row kept after the cut that begins a line (not a long line's later piece).
  let j = lastStartAtOrBefore(starts, oldTail + dropped) + 1;
  while (j < starts.length && text.charCodeAt((starts[j] as number) + delta - 1) !== 10) j++;
  if (j >= starts.length) {
    index.starts = head;
    return;
  }
  const kept = starts.slice(j);
  for (let i = 0; i < kept.length; i++) kept[i] = (kept[i] as number) + delta;
  scan(text, head, Infinity, kept[0]);
  index.starts = head.concat(kept);
}

/**
 * `index` brought up to `text` (changed in place, and returned). With a deadline, the scan may
 * stop early (`complete` false) and goes on at the next call.
 */
export function updateIndex(index: RowIndex, text: string, deadline = Infinity): RowIndex {
  const omitted = splitBounded(text)?.omitted ?? 0;
  const appended =
    text.length >= index.length &&
    omitted === index.omitted &&
    text.slice(index.length - index.tail.length, index.length) === index.tail;
  if (!appended) {
    if (omitted > index.omitted && index.length > KEEP_HEAD_CHARS) shift(index, text, omitted);
    else index.starts = [0];
  }
  index.length = text.length;
  index.tail = text.slice(-TAIL_CHARS);
  index.omitted = omitted;
  index.complete = scan(text, index.starts, deadline);
  return index;
}

/** How many rows to show: an empty open row after a final newline is not one, nor an unscanned rest. */
export function rowCount(index: RowIndex): number {
  if (!index.complete) return index.starts.length - 1;
  const open = index.starts[index.starts.length - 1] as number;
  return open === index.length && index.starts.length > 1 ? index.starts.length - 1 : index.starts.length;
}

/** Row `i`'s text, without its newline. */
export function rowText(text: string, index: RowIndex, i: number): string {
  const start = index.starts[i] as number;
  const next = index.starts[i + 1];
  if (next === undefined) return text.slice(start);
  return text.slice(start, text.charCodeAt(next - 1) === 10 ? next - 1 : next);
}
