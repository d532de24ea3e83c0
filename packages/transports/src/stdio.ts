/**
 * `@twofold/transports/stdio` (Node only): the stdio transports and the newline-delimited JSON
 * framer, re-exported from `@twofold/transports/node`, their one Node entry.
 *
 * @deprecated Import from `@twofold/transports/node`. This subpath stays for one minor release.
 * @packageDocumentation
 */
export {
  DEFAULT_INHERITED_ENV_VARS,
  DEFAULT_INPUT_END_GRACE_MS,
  DEFAULT_INVALID_LINE_PREVIEW_CHARS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES,
  DEFAULT_STDERR_TAIL_BYTES,
  encodeNdjsonLine,
  type InvalidLineHandler,
  NdjsonDecoder,
  type NdjsonDecoderOptions,
  type NdjsonFrame,
  type NdjsonStreamOptions,
  StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioCloseTimeouts,
  type StdioExitInfo,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from './node';
