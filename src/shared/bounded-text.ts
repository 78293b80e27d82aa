/**
 * A plugin's output for one message, bounded: past 2 MiB of text, the first 1 MiB and the last
 * 1 MiB are kept with a line between them that says how much was left out. A plugin that streams
 * without end then costs a fixed amount of memory in the main process, the store and the page,
 * and both the beginning (what it set out to do) and the end (how it finished) stay readable.
 *
 * The kept text depends only on the whole text appended, not on how it was split into chunks,
 * so the main process and the renderer, bounding the same stream, show the same thing.
 * Appending costs time in proportion to the chunk, not to what is held.
 */
export const KEEP_HEAD_CHARS = 1024 * 1024;
export const KEEP_TAIL_CHARS = 1024 * 1024;
export const MAX_TEXT_CHARS = KEEP_HEAD_CHARS + KEEP_TAIL_CHARS;

export function omittedLine(chars: number): string {
  return `\n\n… [${chars.toLocaleString('en-US')} characters of output not kept] …\n\n`;
}

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
        this.tail[drop] = first.slice(excess);
        this.tailChars -= excess;
        this.omitted += excess;
        excess = 0;
      }
    }
    if (drop > 0) this.tail.splice(0, drop);
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
