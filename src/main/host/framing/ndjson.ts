import type { Decoder, Encoder, FrameSink, FramingError } from './types';
import { quote } from './types';

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Newline-delimited JSON. Written by hand because the work is a few lines and the parts that
 * matter here (a cap checked before a line completes, junk kept as a diagnostic instead of an
 * exception) are not what general line splitters offer.
 */
export class NdjsonDecoder implements Decoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed: FramingError | null = null;

  constructor(
    private readonly sink: FrameSink,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): FramingError | null {
    if (this.failed) return this.failed;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const lineBytes = this.pendingBytes + (nl - start);
      if (lineBytes > this.maxLineBytes) return this.fail(lineBytes);
      let line: Buffer;
      if (this.pendingBytes === 0) {
        line = chunk.subarray(start, nl);
      } else {
        this.pending.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.pending, lineBytes);
        this.pending = [];
        this.pendingBytes = 0;
      }
      this.emit(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      if (this.pendingBytes + rest > this.maxLineBytes) return this.fail(this.pendingBytes + rest);
      // Copy: the caller may reuse its buffer, and a subarray would pin the whole chunk.
      this.pending.push(Buffer.from(chunk.subarray(start)));
      this.pendingBytes += rest;
    }
    return null;
  }

  private emit(line: Buffer): void {
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end--;
    const text = line.toString('utf8', 0, end);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.sink.junk(quote(text), `not JSON (${(e as Error).message})`);
      return;
    }
    this.sink.message(value);
  }

  private fail(bytes: number): FramingError {
    this.pending = [];
    this.pendingBytes = 0;
    this.failed = {
      reason: `a line passed the ${this.maxLineBytes}-byte cap (${bytes} bytes without a newline so far)`,
    };
    return this.failed;
  }
}

export const ndjsonEncoder: Encoder = {
  encode(value: unknown): string {
    return `${JSON.stringify(value)}\n`;
  },
};
