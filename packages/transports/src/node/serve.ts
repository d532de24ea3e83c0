/**
 * `serve`: a web-standard handler on a `node:http` server, loopback by default, with the Host
 * check that protects loopback servers from DNS rebinding, explicit header and request
 * timeouts (a peer dripping its headers or its body is cut off), and a `close()` that leaves
 * no socket behind.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardHandler } from '../http-server/guard-handler';
import { authority, checkHost, isLoopbackHost } from '../http-server/guards';
import type { HttpHandler } from '../http-server/types';
import { type NodeListenerOptions, toNodeListener } from './listener';

/**
 * Options of {@link serve}.
 *
 * @experimental
 */
export interface ServeOptions extends NodeListenerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * `Host` header values accepted (403 otherwise). Default: for a loopback `host`, the
   * loopback names with the bound port (`127.0.0.1:<port>`, `localhost:<port>`,
   * `[::1]:<port>`); otherwise no check: the same rule as `createHttpHandler`'s default, which
   * `serve` applies for any handler. A list, or `false` to turn the check off, replaces that
   * default for the handler too (it is not told the local address).
   */
  allowedHosts?: readonly string[] | false;
  /**
   * How long a request's headers may take to arrive, in ms (node:http `headersTimeout`,
   * counted from the connection's start for its first request); 0 turns the bound off.
   * Default 30 s. Past it the server answers `408 Request Timeout` and closes the connection.
   */
  headersTimeoutMs?: number;
  /**
   * How long a whole request (headers and body) may take to arrive, in ms (node:http
   * `requestTimeout`); 0 turns the bound off. Default 120 s. Past it: `408` and the connection
   * closed. Responses are not bounded by it: an SSE stream stays open.
   */
  requestTimeoutMs?: number;
}

// Generous enough for a peer whose event loop is busy (node:http counts from the connection's
// start), tight enough that a dripping peer holds its socket for seconds, not minutes.
const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

function timeoutOption(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 0) {
    throw new RangeError(`${name} must be a non-negative integer of milliseconds: ${resolved}`);
  }
  return resolved;
}

/**
 * The node:http options that bound slow requests. node:http checks them only every
 * `connectionsCheckingInterval` (30 s by default, longer than the bounds themselves): check at
 * a quarter of the shortest bound, at most every second, so each is kept to within a quarter.
 */
function timeoutSettings(options: ServeOptions) {
  const headersTimeout = timeoutOption(
    'headersTimeoutMs',
    options.headersTimeoutMs,
    DEFAULT_HEADERS_TIMEOUT_MS,
  );
  const requestTimeout = timeoutOption(
    'requestTimeoutMs',
    options.requestTimeoutMs,
    DEFAULT_REQUEST_TIMEOUT_MS,
  );
  if (headersTimeout > 0 && requestTimeout > 0 && headersTimeout > requestTimeout) {
    throw new RangeError(
      `headersTimeoutMs (${headersTimeout}) must not exceed requestTimeoutMs (${requestTimeout})`,
    );
  }
  const bounds = [headersTimeout, requestTimeout].filter((bound) => bound > 0);
  const shortest = Math.min(...bounds, 4_000);
  const connectionsCheckingInterval = Math.max(1, Math.floor(shortest / 4));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/**
 * A running server started by {@link serve}.
 *
 * @experimental
 */
export interface ServedEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:53211/`. */
  readonly url: URL;
  readonly server: Server;
  /**
   * Closes the handler (when it has `close()`, as `createHttpHandler`'s does), then the server
   * and every open connection, streams included. Resolves when all are closed.
   */
  close(): Promise<void>;
}

/**
 * Serves `handler` over HTTP on `host:port` (default `127.0.0.1`, a free port), with headers
 * bounded to 30 s and whole requests to 120 s unless configured.
 *
 * @throws RangeError when a timeout is not a non-negative integer, or `headersTimeoutMs`
 *   exceeds `requestTimeoutMs`.
 *
 * @experimental
 */
export async function serve(
  handler: HttpHandler & { close?: () => Promise<void> },
  options: ServeOptions = {},
): Promise<ServedEndpoint> {
  const host = options.host ?? '127.0.0.1';
  // A list, `false`, or a bind that is not loopback replace the handler's default check.
  const allowedHosts =
    options.allowedHosts ?? (isLoopbackHost(authority(host, 0)) ? undefined : false);
  const guarded = guardHandler(
    handler,
    (request, context) => checkHost(request, allowedHosts, context),
    // A list or `false` replaces the handler's default check: it is not told the address.
    (context) => (allowedHosts === undefined ? context : { ...context, localAddress: undefined }),
  );
  // Loaded here, not at import: a stdio server or a client never loads `node:http` for this.
  const { createServer } = await import('node:http');
  const server = createServer(timeoutSettings(options), toNodeListener(guarded, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await handler.close?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };
  return { url: new URL(`http://${authority(host, port)}/`), server, close };
}
