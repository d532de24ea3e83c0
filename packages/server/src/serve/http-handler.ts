/**
 * The server's Streamable HTTP endpoint: transports' runtime-neutral core does the HTTP duties
 * (security checks, limits, header validation, SSE, session plumbing); this file plugs in the
 * modern dispatcher and the legacy session engine.
 */

import {
  type JsonRpcNotification,
  type JsonRpcRequest,
  readRequestEnvelope,
} from '@twofold/protocol/experimental';
import {
  createHttpHandler,
  type HttpExchange,
  type HttpServerCoreOptions,
  type HttpServerHandler,
  type LegacyHooks,
} from '@twofold/transports/experimental';
import { startLegacySession } from '../legacy/start-session';
import { listenHubOf } from '../listen/hub';
import { OpenListens } from '../listen/open-listens';
import { handleModernRequest } from '../modern/dispatch';
import type { ServedServer } from './served-server';

/**
 * Options of {@link createServerHttpHandler}: the core's HTTP options, plus how legacy
 * clients are served.
 *
 * @experimental
 */
export interface ServerHttpHandlerOptions
  extends Omit<HttpServerCoreOptions, 'modern' | 'legacy' | 'headerParams'> {
  /**
   * Legacy clients: sessions by default (`Mcp-Session-Id`, GET stream, DELETE), with these
   * settings (`stateless`, `eventStore`, `idleTimeoutMs`, `maxQueuedMessages`); `false` makes
   * the endpoint modern-only. Ignored when the server offers no legacy version.
   */
  legacy?: Omit<LegacyHooks, 'onSession'> | false;
  /** How long a legacy server-to-client request waits for its answer (default 60 s). */
  requestTimeoutMs?: number;
}

/**
 * A web-standard `(Request) => Promise<Response>` endpoint serving `server` in both eras:
 * modern requests statelessly, legacy clients in sessions (or statelessly when configured).
 * Serve it on Node with `serve` from `@twofold/transports/node`, or hand it to any runtime
 * that speaks fetch-style handlers.
 *
 * @experimental
 */
export function createServerHttpHandler(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): HttpServerHandler {
  const { legacy: legacyOptions, requestTimeoutMs, ...core } = options;
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
  const handler = createHttpHandler({
    ...core,
    modern:
      server.offeredVersions.modern.length > 0
        ? modernHandler(server, listens, onerror)
        : undefined,
    legacy,
    headerParams: (name) => server.headerParams(name),
  });
  const closeCore = handler.close;
  // Open subscriptions end with their final result before the sessions close.
  return Object.assign(handler, { close: () => listens.close().then(closeCore) });
}

function modernHandler(
  server: ServedServer,
  listens: OpenListens,
  onerror: ((error: Error) => void) | undefined,
) {
  const answer = async (message: JsonRpcRequest, exchange: HttpExchange) => {
    const response = await handleModernRequest(server, message, {
      signal: exchange.signal,
      notify: (notification) => exchange.notify(notification),
      onerror,
      shutdown: listens.signal,
    });
    // A client that went away has cancelled the request: there is no stream left to answer on.
    if (exchange.signal.aborted) return;
    // A request missing its required `_meta` is malformed: 400, unlike other -32602 errors.
    const malformed = 'error' in response && !readRequestEnvelope(message.params).ok;
    await exchange.respond(response, malformed ? { status: 400 } : undefined);
  };
  return async (message: JsonRpcRequest | JsonRpcNotification, exchange: HttpExchange) => {
    // Modern clients send no notifications over HTTP that mean anything (cancel is a stream
    // close); the core has already answered 202.
    if (!('id' in message) || message.id === undefined) return;
    const answering = answer(message as JsonRpcRequest, exchange);
    // A listen's final result must be written before the handler's `close` settles.
    await (message.method === 'subscriptions/listen' ? listens.track(answering) : answering);
  };
}
