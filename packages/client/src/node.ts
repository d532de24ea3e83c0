/**
 * `@twofold/client/node` (Node only): server targets for `McpClient` — a stdio server it spawns,
 * and an HTTP endpoint. Every export here is experimental.
 *
 * @packageDocumentation
 */
export {
  httpServer,
  type NodeHttpServerOptions,
  /** The Node target's options (the name before the fetch target moved to `./experimental`). */
  type NodeHttpServerOptions as HttpServerOptions,
} from './targets/node-http';
export { type StdioServerOptions, stdioServer } from './targets/stdio';
