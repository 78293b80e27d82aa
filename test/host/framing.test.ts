import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LengthPrefixedDecoder,
  lengthPrefixedEncoder,
  NdjsonDecoder,
  ndjsonEncoder,
  type Decoder,
  type FrameSink,
} from '../../src/main/host/framing';

function collect(): { sink: FrameSink; messages: unknown[]; junk: string[] } {
  const messages: unknown[] = [];
  const junk: string[] = [];
  return { messages, junk, sink: { message: (v) => messages.push(v), junk: (t) => junk.push(t) } };
}

/** Splits a buffer at the given cut points (sorted, deduplicated, inside the buffer). */
function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    parts.push(buf.subarray(at, p));
    at = p;
  }
  parts.push(buf.subarray(at));
  return parts;
}

const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('NDJSON decoder', () => {
  it('decodes messages split at any byte boundary exactly, in order', () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (values, cuts) => {
        const got = collect();
        const dec = new NdjsonDecoder(got.sink);
        const bytes = Buffer.concat(values.map((v) => Buffer.from(ndjsonEncoder.encode(v))));
        for (const part of split(bytes, cuts)) expect(dec.push(part)).toBeNull();
        expect(got.messages).toEqual(values);
        expect(dec.bufferedBytes).toBe(0);
      }),
    );
  });

  it('keeps multi-byte characters whole across chunk boundaries', () => {
    const got = collect();
    const dec = new NdjsonDecoder(got.sink);
    const bytes = Buffer.from(ndjsonEncoder.encode({ text: 'héllo ✓ 日本 🎉' }));
    for (let i = 0; i < bytes.length; i++) dec.push(bytes.subarray(i, i + 1));
    expect(got.messages).toEqual([{ text: 'héllo ✓ 日本 🎉' }]);
  });

  it('strips \\r, skips blank lines and records junk lines without failing', () => {
    const got = collect();
    const dec = new NdjsonDecoder(got.sink);
    expect(dec.push(Buffer.from('{"a":1}\r\n\n   \r\nprint debugging\n{"b":2}\n'))).toBeNull();
    expect(got.messages).toEqual([{ a: 1 }, { b: 2 }]);
    expect(got.junk).toEqual(['print debugging']);
  });

  it('fails at once when a line passes the cap, before the newline arrives', () => {
    const got = collect();
    const dec = new NdjsonDecoder(got.sink, 1024);
    expect(dec.push(Buffer.from('{"ok":true}\n'))).toBeNull();
    const err = dec.push(Buffer.alloc(1025, 0x61));
    expect(err?.reason).toMatch(/1024-byte cap/);
    expect(dec.bufferedBytes).toBe(0);
    expect(dec.push(Buffer.from('{"late":1}\n'))).toEqual(err);
    expect(got.messages).toEqual([{ ok: true }]);
  });

  it('never throws on garbage and never holds more than the cap', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 40 }), (chunks) => {
        const dec = new NdjsonDecoder({ message: () => {}, junk: () => {} }, 512);
        for (const c of chunks) {
          dec.push(Buffer.from(c));
          expect(dec.bufferedBytes).toBeLessThanOrEqual(512);
        }
      }),
    );
  });
});

describe('length-prefixed decoder', () => {
  it('decodes frames split at any byte boundary exactly, in order', () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (values, cuts) => {
        const got = collect();
        const dec = new LengthPrefixedDecoder(got.sink);
        const bytes = Buffer.concat(values.map((v) => Buffer.from(lengthPrefixedEncoder.encode(v))));
        for (const part of split(bytes, cuts)) expect(dec.push(part)).toBeNull();
        expect(got.messages).toEqual(values);
        expect(dec.bufferedBytes).toBe(0);
      }),
    );
  });

  it('rejects an announced 4 GiB frame from its header alone, allocating nothing', () => {
    const got = collect();
    const dec = new LengthPrefixedDecoder(got.sink);
    const before = process.memoryUsage().arrayBuffers;
    const head = Buffer.alloc(4);
    head.writeUInt32BE(0xffffffff, 0);
    const err = dec.push(Buffer.concat([head, Buffer.from('{"jsonrpc"')]));
    expect(err?.reason).toMatch(/4294967295 bytes, past the 10485760-byte cap/);
    expect(dec.bufferedBytes).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
  });

  it('rejects a frame past the cap even when the header arrives byte by byte', () => {
    const dec = new LengthPrefixedDecoder({ message: () => {}, junk: () => {} }, 100);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(101, 0);
    expect(dec.push(head.subarray(0, 1))).toBeNull();
    expect(dec.push(head.subarray(1, 3))).toBeNull();
    expect(dec.push(head.subarray(3))?.reason).toMatch(/101 bytes/);
  });

  it('records a frame that is not JSON as junk and stays in sync', () => {
    const got = collect();
    const dec = new LengthPrefixedDecoder(got.sink);
    const junk = Buffer.from('not json');
    const head = Buffer.alloc(4);
    head.writeUInt32BE(junk.length, 0);
    dec.push(Buffer.concat([head, junk, Buffer.from(lengthPrefixedEncoder.encode({ after: true }))]));
    expect(got.junk).toEqual(['not json']);
    expect(got.messages).toEqual([{ after: true }]);
  });

  it('never throws on garbage and never holds more than the cap', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 40 }), (chunks) => {
        const dec: Decoder = new LengthPrefixedDecoder({ message: () => {}, junk: () => {} }, 256);
        for (const c of chunks) {
          dec.push(Buffer.from(c));
          expect(dec.bufferedBytes).toBeLessThanOrEqual(256 + 4);
        }
      }),
    );
  });
});
