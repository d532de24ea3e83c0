/**
 * `@twofold/transports/node` (Node only): the stdio client transport (spawns a server) and
 * server transport (serves on this process's stdin/stdout), the newline-delimited JSON framer
 * they share, for custom byte-stream transports (TCP, Unix sockets), `serve`, which puts the
 * Streamable HTTP server core (or any web-standard handler) on `node:http`, and `undiciFetch`,
 * the HTTP client transports' fetch on npm undici. Every export here is experimental.
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
export {
  handleNodeRequest,
  type NodeListenerOptions,
  type NodeRequestListener,
  type NodeRequestOptions,
  toNodeListener,
} from './node/listener';
export { type ServedEndpoint, type ServeOptions, serve } from './node/serve';
export { type UndiciFetch, undiciFetch } from './node/undici-fetch';
// The stdio names, listed as `./stdio` lists them (a test keeps the two alike): `export *` from
// that entry would lose them in the build, which takes a hub's names one by one.
export {
  DEFAULT_INHERITED_ENV_VARS,
  DEFAULT_INPUT_END_GRACE_MS,
  DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES,
  DEFAULT_STDERR_TAIL_BYTES,
  type InvalidLineHandler,
  type NdjsonStreamOptions,
  StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioCloseTimeouts,
  type StdioExitInfo,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from './stdio/index';
