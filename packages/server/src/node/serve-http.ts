/** Serving a server over Streamable HTTP on node:http (Node). */
import type { ServedEndpoint } from '@twofold/transports/node';
import type { ServedServer } from '../core/served-server';
import type { ServeHttpOptions } from './serve-http-now';

export type { ServeHttpOptions } from './serve-http-now';

/**
 * Serves `server` over Streamable HTTP on `node:http` in both eras, in one call: the endpoint
 * of {@link createServerHttpHandler} served by `serve` from `@twofold/transports/node`, on
 * `host:port` (default `127.0.0.1`, a free port) at every path. Resolves once listening, with
 * the endpoint's `url` and a `close()` that ends open subscriptions and sessions, then the
 * server and every connection.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'notes', version: '1.0.0' });
 * const endpoint = await serveHttp(server, { port: 3000 });
 * console.log(`MCP endpoint on ${endpoint.url}`);
 * // later
 * await endpoint.close();
 * ```
 * @throws TypeError when `auth` is incomplete; RangeError when `headersTimeoutMs` is not a
 *   non-negative integer (both as a rejection).
 * @experimental
 */
export async function serveHttp(
  server: ServedServer,
  options: ServeHttpOptions = {},
): Promise<ServedEndpoint> {
  // The endpoint and node:http load with the first call: a stdio server never loads them. A
  // relative import keeps a CommonJS build on CommonJS modules (a package specifier would load
  // the ESM build beside it, with classes of its own).
  const { serveHttpNow } = await import('./serve-http-now');
  return serveHttpNow(server, options);
}
