/**
 * Runtime-neutral framing of JSON-RPC messages over byte streams (newline-delimited JSON, the
 * stdio wire format and the recommended one for custom byte-stream transports).
 */
export {
  DEFAULT_INVALID_LINE_PREVIEW_CHARS,
  DEFAULT_MAX_MESSAGE_BYTES,
  NdjsonDecoder,
  type NdjsonDecoderOptions,
  type NdjsonFrame,
} from './ndjson-decoder';
export { encodeNdjsonLine } from './ndjson-encoder';
