/**
 * `@twofold/transports/stdio` (Node only): the stdio transports and the newline-delimited JSON
 * framer, without the HTTP server: a stdio program that imports them from here loads neither
 * the Streamable HTTP server core nor `node:http`. `@twofold/transports/node` exports the same
 * classes (the same bindings) beside the HTTP ones.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_INVALID_LINE_PREVIEW_CHARS,
  DEFAULT_MAX_MESSAGE_BYTES,
  encodeNdjsonLine,
  NdjsonDecoder,
  type NdjsonDecoderOptions,
  type NdjsonFrame,
} from './framing/index';
export * from './stdio/index';
