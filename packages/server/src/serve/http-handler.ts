/**
 * The server's Streamable HTTP endpoint: transports' runtime-neutral core does the HTTP duties
 * (security checks, limits, header validation, SSE, session plumbing); this file plugs in the
 * modern dispatcher and the legacy session engine.
 */

import {
  isJsonRpcRequest,
  type JsonRpcNotification,
  type JsonRpcRequest,
  readRequestEnvelope,
} from '@twofold/protocol/experimental';
import {
  createHttpHandler,
  guardHandler,
  type HttpExchange,
  type HttpServerCoreOptions,
  type HttpServerHandler,
  type LegacyHooks,
} from '@twofold/transports/http-server';
import { createResourceServer } from '../auth/access-control';
import type { AuthInfo, HttpAuthOptions } from '../auth/types';
import type { ModernIo } from '../core/modern-io';
import { visibleHeaders } from '../core/request-headers';
import type { ServedServer } from '../core/served-server';
import { startLegacySession } from '../legacy/start-session';
import { listenHubOf } from '../listen/hub';
import { OpenListens } from '../listen/open-listens';
import { handleModernRequest } from '../modern/dispatch';

/**
 * Options of {@link createServerHttpHandler}: the core's HTTP options, plus how legacy
 * clients are served and, with `auth`, how requests are authorized.
 *
 * @experimental
 */
export interface ServerHttpHandlerOptions
  extends Omit<HttpServerCoreOptions, 'modern' | 'legacy' | 'headerParams' | 'access'> {
  /**
   * Legacy clients: sessions by default (`Mcp-Session-Id`, GET stream, DELETE), with these
   * settings (`stateless`, `eventStore`, `sessionIdHeader`, `idleTimeoutMs`,
   * `maxQueuedMessages`, `maxSessions`: at most 1000 sessions by default, a new `initialize`
   * evicting the longest-idle one, 503 when every session is busy); `false` makes the endpoint
   * modern-only. Ignored when the server offers no legacy version.
   */
  legacy?: Omit<LegacyHooks, 'onSession'> | false;
  /** How long a legacy server-to-client request waits for its answer (default 60 s). */
  requestTimeoutMs?: number;
  /**
   * Makes the endpoint an OAuth 2.1 resource server: every request needs a bearer token that
   * `verifyToken` accepts (401 with a challenge naming the metadata document otherwise), the
   * Protected Resource Metadata document is served at
   * `/.well-known/oauth-protected-resource<resource path>` without a token, and scopes the
   * endpoint or the called item requires are checked (403 `insufficient_scope`). Handlers see
   * the verified grant as `context.auth`. Absent: no authorization.
   */
  auth?: HttpAuthOptions;
}

/**
 * A web-standard `(Request) => Promise<Response>` endpoint serving `server` in both eras:
 * modern requests statelessly, legacy clients in sessions (or statelessly when configured).
 * Serve it on Node with `serve` from `@twofold/transports/node`, or hand it to any runtime
 * that speaks fetch-style handlers. With `auth`, it is a protected resource (see
 * {@link ServerHttpHandlerOptions.auth}).
 *
 * @example
 * ```ts
 * const handler = createServerHttpHandler(server, {
 *   auth: {
 *     verifyToken: jwtVerifier({ jwksUrl, issuer, audience: 'https://mcp.example.com/mcp' }),
 *     resourceMetadata: {
 *       resource: 'https://mcp.example.com/mcp',
 *       authorization_servers: [issuer],
 *     },
 *   },
 * });
 * const endpoint = await serve(handler, { port: 3000 });
 * ```
 * @throws TypeError when `auth` is incomplete (no verifier, an invalid metadata document).
 * @experimental
 */
export function createServerHttpHandler(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): HttpServerHandler {
  const { legacy: legacyOptions, requestTimeoutMs, auth, ...core } = options;
  const resourceServer = auth === undefined ? undefined : createResourceServer(server, auth);
  const onerror = core.onerror;
  const serveLegacy = legacyOptions !== false && server.offeredVersions.legacy.length > 0;
  const legacy: LegacyHooks | undefined = serveLegacy
    ? {
        ...(legacyOptions ?? {}),
        onSession: async (session) => {
          await startLegacySession(server, session, {
            stateless: legacyOptions?.stateless,
            requestTimeoutMs,
            onerror,
          });
        },
      }
    : undefined;
  const listens = new OpenListens();
  listenHubOf(server);
  warnOfRandomRequestStateKey(server);
  const handler = createHttpHandler({
    ...core,
    modern:
      server.offeredVersions.modern.length > 0
        ? modernHandler(server, listens, onerror)
        : undefined,
    legacy,
    headerParams: (name) => server.headerParams(name),
    access: resourceServer?.access,
  });
  // Open subscriptions end with their final result before the sessions close.
  const closeCore = handler.close;
  const close = () => listens.close().then(closeCore);
  if (resourceServer === undefined) return Object.assign(handler, { close });
  // The metadata document is public: it tells a client without a token how to get one.
  const guarded = guardHandler(handler, (request) =>
    request.method !== 'POST' ? resourceServer.serveMetadata(request.toRequest()) : undefined,
  );
  return Object.assign(guarded, { close });
}

/**
 * The `code` of the process warning an HTTP endpoint gives once when its `requestState` key is
 * random, made by this process (set `requestState.key` on every replica to silence it).
 *
 * @experimental
 */
export const RANDOM_REQUEST_STATE_KEY_WARNING = 'TWOFOLD_RANDOM_REQUEST_STATE_KEY';
let warnedOfRandomKey = false;

/**
 * Says once per process, on stderr where the runtime has Node's `process.emitWarning`, that
 * modern retries will fail on any other replica: its key is random, made by this process.
 */
function warnOfRandomRequestStateKey(server: ServedServer): void {
  if (warnedOfRandomKey || server.offeredVersions.modern.length === 0) return;
  if (server.options.requestState?.key !== undefined) return;
  warnedOfRandomKey = true;
  globalThis.process?.emitWarning?.(
    'requestState.key is not set: this HTTP endpoint seals requestState with a random key of its own, so a retry that reaches another replica fails. Give every replica the same key.',
    { type: 'TwofoldWarning', code: RANDOM_REQUEST_STATE_KEY_WARNING },
  );
}

function modernHandler(
  server: ServedServer,
  listens: OpenListens,
  onerror: ((error: Error) => void) | undefined,
) {
  const answer = async (
    message: JsonRpcRequest,
    exchange: HttpExchange,
    shutdown?: AbortSignal,
  ) => {
    const response = await handleModernRequest(
      server,
      message,
      new ExchangeIo(exchange, onerror, shutdown),
    );
    // A client that went away has cancelled the request: there is no stream left to answer on.
    if (exchange.aborted) return;
    // A request missing its required `_meta` is malformed: 400, unlike other -32602 errors.
    const malformed = 'error' in response && !readRequestEnvelope(message.params).ok;
    await exchange.respond(response, malformed ? { status: 400 } : undefined);
  };
  return async (message: JsonRpcRequest | JsonRpcNotification, exchange: HttpExchange) => {
    // Modern clients send no notifications over HTTP that mean anything (cancel is a stream
    // close); the core has already answered 202.
    if (!isJsonRpcRequest(message)) return;
    // A listen's final result must be written before the handler's `close` settles.
    await (message.method === 'subscriptions/listen'
      ? listens.serve((shutdown) => answer(message, exchange, shutdown))
      : answer(message, exchange));
  };
}

/**
 * One HTTP exchange as a modern request's channel. A class, so that its getters live on the
 * prototype: a per-request object literal with getters outlives its request (see
 * `HandlerContext`). The exchange makes its signal only when a handler reads it.
 */
class ExchangeIo implements ModernIo {
  readonly auth: AuthInfo | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    private readonly exchange: HttpExchange,
    readonly onerror: ((error: Error) => void) | undefined,
    readonly shutdown: AbortSignal | undefined,
  ) {
    this.auth = exchange.auth as AuthInfo | undefined;
    this.headers = visibleHeaders(exchange.headers);
  }

  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  get aborted(): boolean {
    return this.exchange.aborted;
  }

  notify(notification: JsonRpcNotification): Promise<void> {
    return this.exchange.notify(notification);
  }
}
