/** The stdio transports (Node only): spawn a server, or serve on this process's streams. */
export { DEFAULT_INHERITED_ENV_VARS } from './child-env';
export {
  StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioCloseTimeouts,
  type StdioExitInfo,
} from './client-transport';
export {
  DEFAULT_INPUT_END_GRACE_MS,
  DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from './server-transport';
export { DEFAULT_STDERR_TAIL_BYTES } from './stderr-ring';
export type {
  InvalidLineHandler,
  NdjsonStreamOptions,
} from './stream-transport';
