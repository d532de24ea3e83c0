/**
 * Serving a server over Streamable HTTP on node:http (Node). The HTTP endpoint and `serve` are
 * imported when `serveHttp` is first called, so that a stdio server importing this entry does
 * not load them.
 */
import type { ServedEndpoint, ServeOptions } from '@twofold/transports/node';
import type { ServedServer } from '../core/served-server';
import type { ServerHttpHandlerOptions } from '../serve/http-handler';

/**
 * Options of {@link serveHttp}: the endpoint's ({@link ServerHttpHandlerOptions}: legacy
 * sessions, body limits, `auth`, …) and the `node:http` server's (`serve`'s `host`, `port`,
 * `allowedHosts`, `headersTimeoutMs`). Where both have an option of the same name:
 * `allowedHosts` is `serve`'s (by default the loopback names of a loopback bind, `false` for no
 * check), `onerror` receives the failures of both, and `requestTimeoutMs` is the endpoint's
 * (how long a legacy server-to-client request waits); the bound on a whole request's arrival
 * stays at `serve`'s default of 120 s (compose `createServerHttpHandler` with `serve` to set it).
 *
 * @experimental
 */
export interface ServeHttpOptions
  extends Omit<ServerHttpHandlerOptions, 'allowedHosts'>,
    Omit<ServeOptions, 'requestTimeoutMs'> {}

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
  const { host, port, allowedHosts, headersTimeoutMs, onerror, ...endpoint } = options;
  const [{ createServerHttpHandler }, { serve }] = await Promise.all([
    import('../serve/http-handler'),
    import('@twofold/transports/node'),
  ]);
  const handler = createServerHttpHandler(server, { ...endpoint, onerror });
  return serve(handler, { host, port, allowedHosts, headersTimeoutMs, onerror });
}
