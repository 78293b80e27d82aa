import type { Decoder, Encoder, FrameSink, FramingError } from './types';
import { quote } from './types';

export const DEFAULT_MAX_FRAME_BYTES = 10 * 1024 * 1024;

const HEADER = 4;

/**
 * 4-byte big-endian length, then that many bytes of UTF-8 JSON (G-Assist V2). Hand-written for
 * the one property no general framing library guarantees: the announced length is checked
 * against the cap before a single byte of the body is held, so a hostile `0xFFFFFFFF` header
 * costs nothing.
 */
export class LengthPrefixedDecoder implements Decoder {
  private header = Buffer.alloc(HEADER);
  private headerFill = 0;
  private body: Buffer | null = null;
  private bodyFill = 0;
  private failed: FramingError | null = null;

  constructor(
    private readonly sink: FrameSink,
    private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  ) {}

  get bufferedBytes(): number {
    return this.headerFill + this.bodyFill;
  }

  push(chunk: Buffer): FramingError | null {
    if (this.failed) return this.failed;
    let at = 0;
    while (at < chunk.length) {
      if (this.body === null) {
        // Fast path: a whole frame inside this chunk needs no copy.
        if (this.headerFill === 0 && chunk.length - at >= HEADER) {
          const len = chunk.readUInt32BE(at);
          if (len > this.maxFrameBytes) return this.fail(len);
          if (chunk.length - at - HEADER >= len) {
            this.emit(chunk.subarray(at + HEADER, at + HEADER + len));
            at += HEADER + len;
            continue;
          }
          this.startBody(len);
          at += HEADER;
          continue;
        }
        const take = Math.min(HEADER - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + take);
        this.headerFill += take;
        at += take;
        if (this.headerFill < HEADER) break;
        const len = this.header.readUInt32BE(0);
        this.headerFill = 0;
        if (len > this.maxFrameBytes) return this.fail(len);
        this.startBody(len);
        if (len === 0) this.finishBody();
        continue;
      }
      const body = this.body;
      const take = Math.min(body.length - this.bodyFill, chunk.length - at);
      chunk.copy(body, this.bodyFill, at, at + take);
      this.bodyFill += take;
      at += take;
      if (this.bodyFill === body.length) this.finishBody();
    }
    return null;
  }

  private startBody(len: number): void {
    this.body = Buffer.allocUnsafe(len);
    this.bodyFill = 0;
  }

  private finishBody(): void {
    const body = this.body as Buffer;
    this.body = null;
    this.bodyFill = 0;
    this.emit(body);
  }

  private emit(frame: Buffer): void {
    const text = frame.toString('utf8');
    if (text.trim() === '') {
      this.sink.junk('', 'empty frame');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.sink.junk(quote(text), `frame is not JSON (${(e as Error).message})`);
      return;
    }
    this.sink.message(value);
  }

  private fail(len: number): FramingError {
    this.body = null;
    this.bodyFill = 0;
    this.headerFill = 0;
    this.failed = {
      reason: `a frame announced ${len} bytes, past the ${this.maxFrameBytes}-byte cap`,
    };
    return this.failed;
  }
}

export const lengthPrefixedEncoder: Encoder = {
  encode(value: unknown): Buffer {
    const json = JSON.stringify(value);
    const len = Buffer.byteLength(json, 'utf8');
    const out = Buffer.allocUnsafe(HEADER + len);
    out.writeUInt32BE(len, 0);
    out.write(json, HEADER, 'utf8');
    return out;
  },
};
