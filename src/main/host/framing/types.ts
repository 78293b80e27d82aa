/**
 * Framing turns a byte stream into JSON values and back. Decoders never throw on bad input:
 * bytes that are not a message become `junk` diagnostics, and only a size-cap breach is fatal.
 */

export interface FrameSink {
  /** A complete, parsed JSON value. Still `unknown`: the dialect validates its shape. */
  message(value: unknown): void;
  /** Bytes that framed correctly but are not JSON (print debugging, say). */
  junk(text: string, reason: string): void;
}

/** A breach that leaves the stream unusable; the plugin fails with `malformed_response`. */
export interface FramingError {
  reason: string;
}

export interface Decoder {
  /** Feed bytes; returns the fatal error once the stream is unusable, else null. */
  push(chunk: Buffer): FramingError | null;
  /** Bytes held while waiting for the rest of a message. Never above the cap. */
  readonly bufferedBytes: number;
}

export interface Encoder {
  /** A string for text framings (the stream encodes it without an extra copy), bytes otherwise. */
  encode(value: unknown): string | Buffer;
}

/** How much of a junk line a diagnostic quotes. */
export const JUNK_QUOTE_CHARS = 200;

export function quote(text: string): string {
  return text.length > JUNK_QUOTE_CHARS ? `${text.slice(0, JUNK_QUOTE_CHARS)}… (${text.length} chars)` : text;
}
