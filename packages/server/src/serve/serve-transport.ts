/**
 * The dual-era router of one stdio-like connection. Modern requests (a version in `_meta`) are
 * served statelessly whenever they come; an `initialize` opens the connection's one legacy
 * session, which then serves every message without a modern version. Serving both eras at once
 * is allowed by the versioning page, and it keeps a modern probe answered after a legacy client
 * took over (or the other way round).
 */
import {
  classifyInbound,
  createErrorResponse,
  createResultResponse,
  type DecodedMessage,
  ErrorCode,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  LocalError,
  LocalErrorCode,
  type RequestId,
  RequestIdMap,
  type Transport,
} from '@twofold/protocol/experimental';
import type { AuthInfo } from '../auth/types';
import { LazyAbort } from '../core/lazy-abort';
import type { ModernIo } from '../core/modern-io';
import type { ServedServer } from '../core/served-server';
import { LegacyEngine, type LegacyEngineOptions } from '../legacy/engine';
import { listenHubOf } from '../listen/hub';
import { OpenListens } from '../listen/open-listens';
import { handleModernRequest } from '../modern/dispatch';

/**
 * Options of {@link serveTransport}.
 *
 * @experimental
 */
export interface ServeTransportOptions {
  /** How long a legacy server-to-client request waits for its answer (default 60 s). */
  requestTimeoutMs?: number;
  /**
   * `context.auth` of every request on this connection: what the host established about the
   * peer. Off HTTP nothing is verified (stdio takes its credentials from the environment), and
   * `requiredScopes` are not checked. Default: none.
   */
  auth?: AuthInfo;
  /** Failures no response can carry: bad input, failed sends, handler crashes. */
  onerror?: (error: Error) => void;
}

/**
 * A connection being served.
 *
 * @experimental
 */
export interface ServedConnection {
  /** Settles when the transport has closed. */
  readonly closed: Promise<void>;
  /** Ends open subscriptions with their final result, then closes the transport. */
  close(): Promise<void>;
}

/**
 * Serves `server` on one connection (stdio, a socket, an in-memory pair) in both eras, and
 * starts the transport. The era of each message is chosen by how it opens: a modern request
 * or `server/discover` is served statelessly, `initialize` starts a legacy session.
 *
 * @experimental
 */
export async function serveTransport(
  server: ServedServer,
  transport: Transport,
  options: ServeTransportOptions = {},
): Promise<ServedConnection> {
  const report = (error: Error) => options.onerror?.(error);
  const modernInflight = new RequestIdMap<StreamRequestIo>();
  const listens = new OpenListens();
  listenHubOf(server);
  let legacy: LegacyEngine | undefined;
  let closedNow = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const engineOptions: LegacyEngineOptions = {
    requestTimeoutMs: options.requestTimeoutMs,
    auth: options.auth,
    onerror: report,
  };

  const send = (message: JsonRpcMessage, relatedRequestId?: RequestId) =>
    transport.send(message, { relatedRequestId }).catch((error: unknown) => {
      if (!closedNow) report(error instanceof Error ? error : new Error(String(error)));
    });

  const serveModern = (request: JsonRpcRequest) => {
    if (request.method === 'subscriptions/listen')
      void listens.serve((shutdown) => answerModern(request, shutdown));
    else void answerModern(request);
  };

  const answerModern = (request: JsonRpcRequest, shutdown?: AbortSignal): Promise<void> => {
    const io = new StreamRequestIo(
      (notification) => transport.send(notification, { relatedRequestId: request.id }),
      report,
      shutdown,
      options.auth,
    );
    modernInflight.set(request.id, io);
    return handleModernRequest(server, request, io).then((response) => {
      modernInflight.delete(request.id);
      // After a cancel nothing more goes out for the request (stdio cancellation rule).
      if (!io.aborted) return send(response, request.id);
    });
  };

  const route = (decoded: DecodedMessage) => {
    const inbound = classifyInbound(decoded);
    if (inbound.era === 'modern') {
      if (decoded.kind === 'request') serveModern(decoded.message);
      // A notification naming a modern version: only cancellation exists, handled below.
      else if (decoded.kind === 'notification') cancelModern(decoded.message.params);
      return;
    }
    if (inbound.kind === 'initialize')
      legacy ??= new LegacyEngine(server, transport, engineOptions);
    if (legacy !== undefined) {
      if (decoded.kind === 'notification' && decoded.message.method === 'notifications/cancelled') {
        cancelModern(decoded.message.params);
      }
      legacy.receive(decoded.message);
      return;
    }
    routeWithoutSession(decoded);
  };

  // Before `initialize`, a message without a modern version: a legacy ping is answered, a
  // cancel may target a modern request, any other request is a modern one missing its
  // `_meta` (-32602 from the modern dispatcher).
  const routeWithoutSession = (decoded: DecodedMessage) => {
    switch (decoded.kind) {
      case 'request':
        if (decoded.message.method === 'ping') {
          void send(createResultResponse(decoded.message.id, {}), decoded.message.id);
        } else serveModern(decoded.message);
        return;
      case 'notification':
        if (decoded.message.method === 'notifications/cancelled')
          cancelModern(decoded.message.params);
        return;
      default:
        report(
          new Error(`Response to an unknown request id ${JSON.stringify(decoded.message.id)}`),
        );
    }
  };

  const cancelModern = (params: Record<string, unknown> | undefined) => {
    const requestId = params?.requestId;
    if (typeof requestId === 'string' || typeof requestId === 'number') {
      modernInflight.get(requestId)?.abort();
    }
  };

  // A stdio transport whose input ended still answers what is in flight before it closes:
  // open listens end now with their final result, so they do not hold it to its grace period.
  if (isInputEndAware(transport)) transport.oninputend = () => void listens.close();
  transport.onmessage = (message) => route(decode(message));
  transport.onerror = (error) => {
    report(error);
    const reply = invalidInputError(error);
    if (reply !== undefined) void send(reply);
  };
  transport.onclose = () => {
    closedNow = true;
    for (const controller of modernInflight.values()) controller.abort();
    modernInflight.clear();
    legacy?.dispose();
    resolveClosed();
  };
  await transport.start();
  const close = async () => {
    // Open subscriptions end with their final result before the transport goes.
    await listens.close();
    await transport.close();
  };
  return { closed, close };
}

/** One modern request's side of the stream, in one object: cancel state and notifications. */
class StreamRequestIo extends LazyAbort implements ModernIo {
  constructor(
    readonly notify: (notification: JsonRpcNotification) => Promise<void>,
    readonly onerror: (error: Error) => void,
    readonly shutdown: AbortSignal | undefined,
    readonly auth: AuthInfo | undefined,
  ) {
    super();
  }
}

/** The transport only delivers valid envelopes; this recovers which kind each is. */
function decode(message: JsonRpcMessage): DecodedMessage {
  if (isJsonRpcRequest(message)) return { kind: 'request', message };
  if (!isJsonRpcResponse(message)) return { kind: 'notification', message };
  return 'result' in message ? { kind: 'result', message } : { kind: 'error', message };
}

/** A transport that reports the end of its input before it closes (`StdioServerTransport`). */
interface InputEndAware {
  oninputend: (() => void) | undefined;
}

function isInputEndAware(transport: Transport): transport is Transport & InputEndAware {
  return 'oninputend' in transport;
}

/**
 * Input the transport could not deliver gets a JSON-RPC error: -32700 for text that is not
 * JSON, -32600 for anything else. It names the request's id when the framer could read one
 * (`details.id`, from the protocol's envelope check, as over HTTP; for an oversized line, only
 * when its kept bytes show a request), else it has none, as JSON-RPC asks for unreadable
 * requests. An invalid response is never answered by id: that id is one of this side's own.
 */
function invalidInputError(error: Error) {
  if (!(error instanceof LocalError)) return undefined;
  if (error.code === LocalErrorCode.MessageTooLarge) {
    const id = error.details?.kind === 'request' ? error.details.id : undefined;
    return createErrorResponse(isRequestId(id) ? id : undefined, {
      code: ErrorCode.InvalidRequest,
      message: error.message,
    });
  }
  if (error.code !== LocalErrorCode.InvalidMessage) return undefined;
  const reason = String(error.details?.reason ?? '');
  const code = reason.startsWith('Parse error') ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
  const id = error.details?.id;
  return createErrorResponse(isRequestId(id) ? id : undefined, { code, message: error.message });
}
