/**
 * A plugin's output for one message, bounded: past 2 MiB of text, the first 1 MiB and the last
 * 1 MiB are kept with a line between them that says how much was left out. A plugin that streams
 * without end then costs a fixed amount of memory in the main process, the store and the page,
 * and both the beginning (what it set out to do) and the end (how it finished) stay readable.
 *
 * One rule, two forms: `BoundedText` accumulates a stream chunk by chunk (the main process, where
 * every chunk passes), and `appendBounded` works on a string already bounded (the page, which
 * holds message text as strings and appends once per frame). A kept end never starts with the
 * second half of a surrogate pair.
 */
export const KEEP_HEAD_CHARS = 1024 * 1024;
export const KEEP_TAIL_CHARS = 1024 * 1024;
export const MAX_TEXT_CHARS = KEEP_HEAD_CHARS + KEEP_TAIL_CHARS;

export function omittedLine(chars: number): string {
  return `\n… [${chars} characters of output not kept] …\n`;
}

const OMITTED = /\n… \[(\d+) characters of output not kept\] …\n/y;

export interface BoundedParts {
  head: string;
  omitted: number;
  tail: string;
}

/**
 * The line that says what was left out, looked for where the kept beginning ends: `at` is
 * KEEP_HEAD_CHARS in a bounded text, less in one shown without its first characters (a fence
 * line taken off). How many characters it says were left out, and where the kept end starts;
 * null where there is no such line.
 */
export function findOmission(text: string, at = KEEP_HEAD_CHARS): { omitted: number; tailStart: number } | null {
  if (at < 0 || text.length <= at || !text.startsWith('\n… [', at)) return null;
  OMITTED.lastIndex = at;
  const m = OMITTED.exec(text);
  return m ? { omitted: Number(m[1]), tailStart: OMITTED.lastIndex } : null;
}

/** A bounded text taken apart; null for a text that was never cut. */
export function splitBounded(text: string): BoundedParts | null {
  const found = findOmission(text);
  if (!found) return null;
  return { head: text.slice(0, KEEP_HEAD_CHARS), omitted: found.omitted, tail: text.slice(found.tailStart) };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text + added`, within the bound. With `slack`, an end that outgrows its limit is cut back to
 * `slack` characters below it, so a caller appending often rewrites it once per `slack`
 * characters instead of at every append (it then keeps a little less than 1 MiB of the end).
 */
export function appendBounded(text: string, added: string, slack = 0): string {
  const cut = splitBounded(text);
  let p: BoundedParts;
  if (cut) {
    if (cut.tail.length + added.length <= KEEP_TAIL_CHARS) return text + added;
    p = { ...cut, tail: cut.tail + added };
  } else {
    if (text.length + added.length <= MAX_TEXT_CHARS) return text + added;
    const whole = text + added;
    p = { head: whole.slice(0, KEEP_HEAD_CHARS), omitted: 0, tail: whole.slice(KEEP_HEAD_CHARS) };
  }
  let drop = p.tail.length - (KEEP_TAIL_CHARS - slack);
  if (isLowSurrogate(p.tail.charCodeAt(drop))) drop += 1;
  return p.head + omittedLine(p.omitted + drop) + p.tail.slice(drop);
}

/** Accumulates a stream within the bound; appending costs time in proportion to the chunk. */
export class BoundedText {
  private head = '';
  private tail: string[] = [];
  private tailChars = 0;
  private omitted = 0;
  private joined: string | null = '';

  constructor(initial = '') {
    this.append(initial);
  }

  /** Characters left out so far. */
  get omittedChars(): number {
    return this.omitted;
  }

  append(text: string): void {
    if (!text) return;
    this.joined = null;
    if (this.head.length < KEEP_HEAD_CHARS) {
      const room = KEEP_HEAD_CHARS - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (!text) return;
    }
    this.tail.push(text);
    this.tailChars += text.length;
    // Keep the last KEEP_TAIL_CHARS: whole chunks leave from the front, the first one may be cut.
    let excess = this.tailChars - KEEP_TAIL_CHARS;
    let drop = 0;
    while (excess > 0) {
      const first = this.tail[drop] as string;
      if (first.length <= excess) {
        excess -= first.length;
        this.tailChars -= first.length;
        this.omitted += first.length;
        drop++;
      } else {
        const at = isLowSurrogate(first.charCodeAt(excess)) ? excess + 1 : excess;
        this.tail[drop] = first.slice(at);
        this.tailChars -= at;
        this.omitted += at;
        excess = 0;
      }
    }
    if (drop > 0) {
      this.tail.splice(0, drop);
      // A chunk boundary inside a surrogate pair: the kept end starts after the pair.
      const first = this.tail[0];
      if (first && isLowSurrogate(first.charCodeAt(0))) {
        this.tail[0] = first.slice(1);
        this.tailChars -= 1;
        this.omitted += 1;
      }
    }
    // Many small chunks: fold them, so trimming the front never walks a long array.
    if (this.tail.length > 256) this.tail = [this.tail.join('')];
  }

  toString(): string {
    if (this.joined === null) {
      this.joined = this.head + (this.omitted > 0 ? omittedLine(this.omitted) : '') + this.tail.join('');
    }
    return this.joined;
  }
}
