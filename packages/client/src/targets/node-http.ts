/** The Node HTTP target: the fetch target on npm undici, with a connection pool per transport. */
import { undiciFetch } from '@twofold/transports/node';
import type { Dispatcher } from 'undici';
import type { ServerTarget } from '../types';
import { type HttpServerOptions, httpTarget } from './http';

/**
 * How to reach an HTTP server from Node.
 *
 * @experimental
 */
export interface NodeHttpServerOptions extends HttpServerOptions {
  /**
   * The undici dispatcher (e.g. a proxy agent), left open on close. Default: a keep-alive
   * agent per transport, closed with it. Ignored when `fetch` is given.
   */
  dispatcher?: Dispatcher;
}

/**
 * A server reached over HTTP from Node, on npm undici: each connection has its own keep-alive
 * pool and leaves no socket behind on close, or uses the `dispatcher` given. The client starts
 * with a modern POST and falls back to legacy Streamable HTTP, then to HTTP+SSE, as the
 * server's answers require. Messages name it by its origin and path.
 *
 * @example
 * ```ts
 * const target = httpServer({
 *   url: 'https://mcp.example.com/mcp',
 *   headers: { 'X-Api-Key': process.env.API_KEY ?? '' },
 * });
 * const client = await McpClient.connect(target, { clientInfo: { name: 'my-app', version: '1.0.0' } });
 * ```
 * @experimental
 */
export function httpServer(options: NodeHttpServerOptions): ServerTarget {
  return httpTarget(options, () =>
    options.fetch === undefined ? undiciFetch(options.dispatcher) : { fetch: options.fetch },
  );
}
