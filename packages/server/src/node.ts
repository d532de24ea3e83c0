/**
 * `@twofold/server/node` (Node only): serve an `McpServer` on process streams (`serveStdio`) or
 * over Streamable HTTP on `node:http` (`serveHttp`). Every export here is experimental.
 *
 * @packageDocumentation
 */
export { type ServeHttpOptions, serveHttp } from './node/serve-http';
export { type ServeStdioOptions, serveStdio } from './node/serve-stdio';
export type { ServedConnection, ServeTransportOptions } from './serve/serve-transport';
