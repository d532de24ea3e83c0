/**
 * `@twofold/client/node` (Node only): server targets for `McpClient` — a stdio server it spawns,
 * and an HTTP endpoint. Every export here is experimental.
 *
 * @packageDocumentation
 */
export { type HttpServerOptions, httpServer } from './targets/http';
export { type StdioServerOptions, stdioServer } from './targets/stdio';
