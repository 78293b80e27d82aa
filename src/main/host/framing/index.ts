import type { Framing } from '../../../shared/plugin';
import { LengthPrefixedDecoder, lengthPrefixedEncoder, DEFAULT_MAX_FRAME_BYTES } from './length-prefixed';
import { NdjsonDecoder, ndjsonEncoder, DEFAULT_MAX_LINE_BYTES } from './ndjson';
import type { Decoder, Encoder, FrameSink } from './types';

export type { Decoder, Encoder, FrameSink, FramingError } from './types';
export { NdjsonDecoder, ndjsonEncoder, DEFAULT_MAX_LINE_BYTES } from './ndjson';
export { LengthPrefixedDecoder, lengthPrefixedEncoder, DEFAULT_MAX_FRAME_BYTES } from './length-prefixed';

export interface Codec {
  decoder: Decoder;
  encoder: Encoder;
}

export function createCodec(framing: Framing, sink: FrameSink, maxBytes?: number): Codec {
  if (framing === 'length-prefixed') {
    return {
      decoder: new LengthPrefixedDecoder(sink, maxBytes ?? DEFAULT_MAX_FRAME_BYTES),
      encoder: lengthPrefixedEncoder,
    };
  }
  return { decoder: new NdjsonDecoder(sink, maxBytes ?? DEFAULT_MAX_LINE_BYTES), encoder: ndjsonEncoder };
}
