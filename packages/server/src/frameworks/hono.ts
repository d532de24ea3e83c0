/** The endpoint as a hono handler (any runtime hono runs on). */
import type { HttpRequestContext } from '@twofold/transports/http-server';
import type { ServedServer } from '../core/served-server';
import type { ServerHttpHandlerOptions } from '../serve/http-handler';
import { type FrameworkEndpoint, frameworkEndpoint } from './endpoint';

/**
 * The part of hono's `Context` the handler reads: the web request, and the bindings, where
 * `@hono/node-server` puts the node request (whose socket tells the local address).
 *
 * @experimental
 */
export interface HonoContextLike {
  readonly req: { readonly raw: Request };
  readonly env?: unknown;
}

/**
 * A hono handler, typed structurally so this package needs no hono types.
 *
 * @experimental
 */
export type HonoHandler = FrameworkEndpoint<(c: HonoContextLike) => Promise<Response>>;

/** The local address of the node request `@hono/node-server` passes as `env.incoming`. */
function nodeLocalAddress(env: unknown): HttpRequestContext['localAddress'] {
  const socket = (
    env as { incoming?: { socket?: { localAddress?: unknown; localPort?: unknown } } }
  )?.incoming?.socket;
  const address = socket?.localAddress;
  const port = socket?.localPort;
  return typeof address === 'string' && typeof port === 'number' ? { address, port } : undefined;
}

/**
 * Serves `server` (both eras) as a hono handler on `c.req.raw`. On `@hono/node-server` the
 * connection's local address turns on the default loopback Host check, as on `serveHttp`;
 * elsewhere set `allowedHosts`. Mount it before anything that reads the body, for GET, POST and
 * DELETE (`app.all`).
 *
 * @example
 * ```ts
 * const app = new Hono();
 * app.all('/mcp', createHonoHandler(server));
 * serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 3000 }); // @hono/node-server
 * ```
 * @throws TypeError when `auth` is incomplete.
 * @experimental
 */
export function createHonoHandler(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): HonoHandler {
  return frameworkEndpoint(server, options, (handler) => (c) => {
    const localAddress = nodeLocalAddress(c.env);
    return handler(c.req.raw, localAddress === undefined ? {} : { localAddress });
  });
}
