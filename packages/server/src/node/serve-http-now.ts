/**
 * What `serveHttp` runs on its first call: the HTTP endpoint on `node:http`. A module of its
 * own, imported lazily, so that a stdio server importing `./node` does not load the HTTP code.
 */
import { type ServedEndpoint, type ServeOptions, serve } from '@twofold/transports/node';
import type { ServedServer } from '../core/served-server';
import { createServerHttpHandler, type ServerHttpHandlerOptions } from '../serve/http-handler';

/**
 * Options of `serveHttp`: the endpoint's ({@link ServerHttpHandlerOptions}: legacy
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

/** Serves `server` as `serveHttp` documents it. */
export function serveHttpNow(
  server: ServedServer,
  options: ServeHttpOptions,
): Promise<ServedEndpoint> {
  const { host, port, allowedHosts, headersTimeoutMs, onerror, ...endpoint } = options;
  const handler = createServerHttpHandler(server, { ...endpoint, onerror });
  return serve(handler, { host, port, allowedHosts, headersTimeoutMs, onerror });
}
