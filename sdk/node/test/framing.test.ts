/** The framing helpers the SDK exports, in process. */
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, FrameTooLargeError, MAX_FRAME_BYTES } from '../src/framing.js';

describe('encodeFrame', () => {
  it('prefixes the UTF-8 byte length, big-endian', () => {
    const frame = encodeFrame({ data: 'héllo ✓' });
    const body = JSON.stringify({ data: 'héllo ✓' });
    expect(frame.readUInt32BE(0)).toBe(Buffer.byteLength(body));
    expect(frame.subarray(4).toString('utf8')).toBe(body);
  });

  it('refuses a message past the cap, and values JSON cannot hold', () => {
    expect(() => encodeFrame({ data: 'x'.repeat(100) }, 50)).toThrow(FrameTooLargeError);
    expect(() => encodeFrame(undefined)).toThrow(TypeError);
  });
});

describe('FrameReader', () => {
  const messages = [{ a: 1 }, { b: 'two ✓' }, [3], 'four'];
  const stream = Buffer.concat(messages.map((m) => encodeFrame(m)));

  it('decodes frames whatever the chunking, one byte at a time included', () => {
    for (const size of [1, 3, 7, stream.length]) {
      const reader = new FrameReader();
      const out: unknown[] = [];
      for (let i = 0; i < stream.length; i += size) {
        for (const f of reader.push(stream.subarray(i, i + size))) out.push(f.ok ? f.value : f);
      }
      expect(out).toEqual(messages);
      expect(reader.pendingBytes).toBe(0);
    }
  });

  it('reports a body that is not JSON without losing the frames after it', () => {
    const junk = Buffer.from('not json');
    const head = Buffer.alloc(4);
    head.writeUInt32BE(junk.length);
    const frames = new FrameReader().push(Buffer.concat([head, junk, encodeFrame({ ok: 1 })]));
    expect(frames[0]).toMatchObject({ ok: false, text: 'not json' });
    expect(frames[1]).toEqual({ ok: true, value: { ok: 1 } });
  });

  it('rejects an oversize announced length from the header alone, and stays failed', () => {
    const reader = new FrameReader();
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1);
    expect(() => reader.push(header)).toThrow(/10485761 bytes, past the 10485760-byte cap/);
    expect(() => reader.push(encodeFrame({ a: 1 }))).toThrow(FrameTooLargeError);
  });

  it('accepts a frame of exactly the cap', () => {
    const reader = new FrameReader(20);
    const frame = encodeFrame('x'.repeat(18), 20); // "xxx…" with quotes: 20 bytes
    expect(reader.push(frame)).toEqual([{ ok: true, value: 'x'.repeat(18) }]);
  });
});
