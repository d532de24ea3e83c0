/**
 * `@twofold/server/http`: {@link createServerHttpHandler}, a server's Streamable HTTP endpoint
 * as a web-standard handler, `(Request) => Promise<Response>`, for any runtime (Bun, Deno,
 * Workers, framework routes; on Node, `serveHttp` from `./node` serves it in one call). An
 * entry of its own so that a stdio server does not load the HTTP server code. Every export
 * here is experimental.
 *
 * @example
 * ```ts
 * import { McpServer } from '@twofold/server/experimental';
 * import { createServerHttpHandler } from '@twofold/server/http';
 *
 * const server = new McpServer({ name: 'notes', version: '1.0.0' });
 * const handler = createServerHttpHandler(server);
 * export default { fetch: (request: Request) => handler(request) };
 * ```
 *
 * @packageDocumentation
 */
export {
  createServerHttpHandler,
  RANDOM_REQUEST_STATE_KEY_WARNING,
  type ServerHttpHandlerOptions,
} from './serve/http-handler';
