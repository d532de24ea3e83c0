/**
 * `@twofold/server/stdio` (Node only): serve an `McpServer` on process streams. Every export
 * here is experimental.
 *
 * @packageDocumentation
 */
export { type ServeStdioOptions, serveStdio } from './node/serve-stdio';
export type { ServedConnection, ServeTransportOptions } from './serve/serve-transport';
