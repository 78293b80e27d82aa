/**
 * G-Assist V2 framing: a 4-byte big-endian unsigned length, then that many bytes of UTF-8 JSON.
 * Exported for plugin tests as well as used by the plugin loop.
 */

/** The SDKs and the engine refuse frames larger than this. */
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;

const HEADER_BYTES = 4;

export class FrameTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
    what = 'a frame announced',
  ) {
    super(`${what} ${bytes} bytes, past the ${maxBytes}-byte cap`);
    this.name = 'FrameTooLargeError';
  }
}

/** One message as a frame. Throws FrameTooLargeError past the cap, TypeError if not JSON-able. */
export function encodeFrame(message: unknown, maxBytes = MAX_FRAME_BYTES): Buffer {
  const json = JSON.stringify(message);
  if (json === undefined) throw new TypeError(`cannot send ${typeof message} as JSON`);
  const length = Buffer.byteLength(json, 'utf8');
  if (length > maxBytes) throw new FrameTooLargeError(length, maxBytes, 'a message of');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, HEADER_BYTES, 'utf8');
  return frame;
}

/** A decoded frame: its JSON value, or the text and the reason it is not JSON. */
export type Frame = { ok: true; value: unknown } | { ok: false; text: string; reason: string };

/**
 * Turns a byte stream into frames, whatever the chunking. The announced length is checked
 * against the cap before any memory is set aside for the body, so a hostile 0xFFFFFFFF header
 * costs nothing: `push` throws FrameTooLargeError, and keeps throwing (the stream is lost).
 */
export class FrameReader {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private body: Buffer | null = null;
  private bodyFill = 0;
  private failure: FrameTooLargeError | null = null;

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  /** Bytes received of a frame that is not complete yet. */
  get pendingBytes(): number {
    return this.headerFill + this.bodyFill;
  }

  push(chunk: Uint8Array): Frame[] {
    if (this.failure) throw this.failure;
    const frames: Frame[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.body === null) {
        const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - at);
        this.header.set(chunk.subarray(at, at + take), this.headerFill);
        this.headerFill += take;
        at += take;
        if (this.headerFill < HEADER_BYTES) break;
        this.headerFill = 0;
        const length = this.header.readUInt32BE(0);
        if (length > this.maxBytes) {
          this.failure = new FrameTooLargeError(length, this.maxBytes);
          throw this.failure;
        }
        this.body = Buffer.allocUnsafe(length);
        this.bodyFill = 0;
      }
      const body = this.body;
      const take = Math.min(body.length - this.bodyFill, chunk.length - at);
      body.set(chunk.subarray(at, at + take), this.bodyFill);
      this.bodyFill += take;
      at += take;
      if (this.bodyFill === body.length) {
        this.body = null;
        this.bodyFill = 0;
        frames.push(decode(body));
      }
    }
    // A zero-length frame completes with its header, even at the end of a chunk.
    if (this.body !== null && this.body.length === 0) {
      this.body = null;
      frames.push(decode(Buffer.alloc(0)));
    }
    return frames;
  }
}

function decode(body: Buffer): Frame {
  const text = body.toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, text: text.length > 200 ? `${text.slice(0, 200)}…` : text, reason: (e as Error).message };
  }
}
