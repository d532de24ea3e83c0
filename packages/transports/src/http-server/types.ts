/**
 * The contract between the Streamable HTTP server core (HTTP duties: security checks, limits,
 * content negotiation, header validation, SSE, sessions plumbing) and whatever implements MCP on
 * top of it (`@twofold/server`). Runtime-neutral: web `Request`/`Response` only.
 */
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  McpHeaderParam,
  MessageContext,
  Transport,
} from '@twofold/protocol/experimental';
import type { IncomingRequest } from './incoming';
import type { Answer } from './responses';

/**
 * One inbound POST being answered. The answer is a single JSON body unless something is sent
 * before the response, in which case it becomes an SSE stream (notifications, then the
 * response, then the end of the stream).
 *
 * @experimental
 */
export interface HttpExchange {
  /** The request's headers, by lower-case name (read when first asked for). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Fires when the client goes away (modern: that is the cancellation of the request). Made
   * when first read: a caller that only needs to know uses {@link HttpExchange.aborted}.
   */
  readonly signal: AbortSignal;
  /** Whether the client has gone away. */
  readonly aborted: boolean;
  /** The legacy session, when the POST belongs to one. */
  readonly sessionId?: string | undefined;
  /** What the endpoint's access control granted this request ({@link HttpGrant.auth}). */
  readonly auth?: unknown;
  /** Sends a message about this request before its response (progress, log): switches to SSE. */
  notify(message: JsonRpcNotification): Promise<void>;
  /**
   * Sends the response and ends the exchange. A JSON answer's HTTP status follows the error
   * code (-32020/-32021/-32022 → 400, -32601 → 404, else 200) unless `status` is given.
   */
  respond(message: JsonRpcResponse, options?: { status?: number }): Promise<void>;
  /**
   * Opens the SSE stream now and keeps it open with keep-alive comments (for
   * `subscriptions/listen`): later `notify` calls go out at once; `respond` ends it.
   */
  openStream(): Promise<void>;
}

/**
 * Handles one modern (2026-07-28) request or notification, statelessly. For a notification the
 * core has already answered 202; `exchange.respond` is not called.
 *
 * @experimental
 */
export type ModernHandler = (
  message: JsonRpcRequest | JsonRpcNotification,
  exchange: HttpExchange,
) => void | Promise<void>;

/**
 * A legacy Streamable HTTP session, server side: a `Transport` whose `send` routes a message to
 * the POST stream of the request it answers (`relatedRequestId`) or, unrelated, to the
 * session's GET stream (queued until one is open, replayable through an `EventStore`).
 *
 * @experimental
 */
export interface LegacySession extends Transport {
  readonly sessionId: string | undefined;
}

/**
 * Stores SSE events of legacy sessions so a client reconnecting with `Last-Event-ID` gets what
 * it missed on that stream. Event ids must be unique across a session's streams.
 *
 * @experimental
 */
export interface EventStore {
  /** Stores a message sent on `streamId` and returns its event id. */
  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string>;
  /** Replays the events after `lastEventId` on its stream, in order; returns that stream's id. */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string | undefined>;
  /**
   * Stores a position without a message at the start of `streamId` and returns its event id,
   * sent as the priming event of 2025-11-25 streams (replay skips it). Stores without this
   * method send no priming event.
   */
  storePrimingEvent?(streamId: string): Promise<string>;
}

/**
 * What the server package implements for legacy clients (2025-11-25 / 2025-06-18 / 2024-11-05
 * Streamable HTTP). Absent: the endpoint is modern-only (legacy POSTs 400, GET and DELETE 405).
 *
 * @experimental
 */
export interface LegacyHooks {
  /**
   * An `initialize` arrived: connect a new session's transport to the server's legacy protocol
   * logic. The core delivers the initialize message to it next and, unless `stateless`, mints
   * the `Mcp-Session-Id` returned on the initialize response. The session must be started
   * (`start()`, e.g. by connecting it) by the time this returns or its promise resolves;
   * otherwise the POST is answered 500 and the failure goes to the session's `onerror`.
   */
  onSession(session: LegacySession): void | Promise<void>;
  /** Serve legacy clients without sessions: every POST gets a one-shot session. */
  stateless?: boolean;
  /**
   * A request header of `initialize` whose value becomes the new session's id, for a trusted
   * proxy that routes sessions by a hash of their id: it invents the id (nginx: `$request_id`)
   * before any replica has seen the session, routes the `initialize` by it, and every later
   * request by the `Mcp-Session-Id` that repeats it. A missing value, one that is not 16 to 128
   * visible ASCII characters, or one naming an open session gets a random id instead. Only
   * behind such a proxy: a client reaching the endpoint directly could choose its session's id.
   */
  sessionIdHeader?: string;
  /** Enables resumability of GET and POST streams. */
  eventStore?: EventStore;
  /**
   * The `retry:` (milliseconds) a priming event carries: how long a client waits before it
   * reconnects to a stream the server closed. Absent: no `retry:` (the client's own default).
   */
  retryIntervalMs?: number;
  /** Sessions idle longer than this are closed (default: 30 minutes). */
  idleTimeoutMs?: number;
  /**
   * Sessions open at once (default: 1000). At the cap, a new `initialize` closes the
   * longest-idle session that has no request in flight and no GET stream open (its client's
   * next request gets 404 and starts a new session, as the legacy revisions prescribe); when
   * every session is busy, the `initialize` is refused with 503, `Retry-After: 5` and a
   * JSON-RPC error (-32603, `data.reason: "too-many-sessions"`). Not used when `stateless`.
   */
  maxSessions?: number;
  /**
   * Messages unrelated to a request that a session holds while no GET stream is open; a send
   * beyond it is rejected (default: 100).
   */
  maxQueuedMessages?: number;
}

/**
 * The context the core attaches to each message it delivers to a legacy session: the
 * `MessageContext` of the POST that carried it, plus that request's grant. Credentials are per
 * POST, not per session, since a client may refresh its token mid-session.
 *
 * @experimental
 */
export interface HttpMessageContext extends MessageContext {
  /** What the access control granted the POST that carried the message ({@link HttpGrant.auth}). */
  readonly auth?: unknown;
  /**
   * Present on a request whose SSE stream can be resumed (a 2025-11-25 session with an event
   * store): ends that stream now, after its priming event, while the request goes on; what is
   * sent afterwards waits in the store for the client's GET with `Last-Event-ID` (SEP-1699).
   */
  readonly closeStream?: () => Promise<void>;
}

/**
 * What the access control lets a request do.
 *
 * @experimental
 */
export interface HttpGrant {
  /**
   * Handed on, unread by the core, with what the request carries: as `HttpExchange.auth`
   * (modern) and `HttpMessageContext.auth` (legacy).
   */
  readonly auth?: unknown;
  /**
   * Who the request acts for (a user or client id), when known. A legacy session keeps the
   * owner of its `initialize`; a later POST, GET or DELETE for that session from another owner
   * (or none) is answered 404 as if the session did not exist, so a leaked session id is
   * useless with someone else's token.
   */
  readonly owner?: string | undefined;
}

/**
 * Access control of an endpoint that is an OAuth resource server (the server package's `auth`
 * option builds one). The core only asks and obeys; verifying tokens and writing challenges is
 * the implementation's business.
 *
 * @experimental
 */
export interface HttpAccessControl {
  /**
   * Runs on every POST, GET and DELETE after the Host and Origin checks, before the body is
   * read: resolve to a `Response` to refuse the request as it stands (a 401 with its challenge),
   * or to the grant. A rejection is answered 500 and reported to `onerror`.
   */
  authenticate(request: Request): Promise<Response | HttpGrant>;
  /**
   * Runs on each POSTed message once it is parsed and routed (modern: after header validation),
   * before it is delivered: return a `Response` to refuse it (a 403 with its challenge).
   */
  authorize?(
    message: JsonRpcMessage,
    grant: HttpGrant,
  ): Response | undefined | Promise<Response | undefined>;
}

/**
 * Options of the Streamable HTTP server core.
 *
 * @experimental
 */
export interface HttpServerCoreOptions {
  /** Modern requests and notifications. Absent: modern POSTs are answered 400 (-32022). */
  modern?: ModernHandler;
  legacy?: LegacyHooks;
  /**
   * Origins allowed to call the endpoint (DNS-rebinding protection; 403 otherwise), compared
   * as origins. Default: a present `Origin` must be a loopback one (`http://localhost:6274`);
   * a browser page elsewhere needs listing. Requests without `Origin` (non-browser clients)
   * pass. `false` turns the check off.
   */
  allowedOrigins?: readonly string[] | false;
  /**
   * Host header values accepted (403 otherwise), e.g. `['mcp.example.com']`. Default: when
   * the runtime adapter names a loopback local address ({@link HttpRequestContext.localAddress};
   * the node adapters do), the loopback names with that port; otherwise any. `false` turns
   * the check off.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Largest accepted request body in bytes. Default 4 MiB. Beyond it: 413 with a JSON-RPC
   * error (-32600) and `Connection: close`, the rest of the body unread.
   */
  maxBodyBytes?: number;
  /**
   * How long reading a POST body may take, from the first read to its end, in ms; 0 turns the
   * bound off. Default 60 s. Past it: 408 with a JSON-RPC error (-32600) and
   * `Connection: close`. On Node, `serve`'s `requestTimeoutMs` also bounds the whole request.
   */
  bodyTimeoutMs?: number;
  /** Interval of SSE keep-alive comments on open streams. Default 15 s. */
  keepAliveIntervalMs?: number;
  /** The `x-mcp-header` parameters of a tool, to check `Mcp-Param-*` on `tools/call`. */
  headerParams?: (toolName: string) => readonly McpHeaderParam[] | undefined;
  /** Access control (OAuth resource server). Absent: every request is let through. */
  access?: HttpAccessControl;
  /** Failures that no HTTP answer can carry (a notification handler that threw, …). */
  onerror?: (error: Error) => void;
}

/**
 * A web-standard request handler (fetch-style): works in Node (through the adapter), Deno, Bun
 * and Workers.
 *
 * @experimental
 */
export type HttpHandler = (request: Request, context?: HttpRequestContext) => Promise<Response>;

/**
 * The core's entry under a runtime's handler: the request seen as an {@link IncomingRequest},
 * answered with a {@link Reply} of the core's or a hook's `Response`. node:http calls it
 * directly, so no web `Request` or `Response` is made on its way.
 *
 * @experimental
 */
export type CoreHandler = (
  request: IncomingRequest,
  context?: HttpRequestContext,
) => Promise<Answer>;

/**
 * A web-standard handler that also offers the core's entry (`createHttpHandler`'s, and the
 * server package's).
 *
 * @experimental
 */
export interface AnsweringHandler extends HttpHandler {
  readonly answer: CoreHandler;
}

/**
 * What a host knows about a request beyond the `Request` itself, passed as a handler's second
 * argument by framework adapters.
 *
 * @experimental
 */
export interface HttpRequestContext {
  /**
   * The body a framework has already read (`express.json()`, fastify's JSON parser): a parsed
   * JSON value, or the raw text or bytes. When present, the request's own body is not read and
   * `maxBodyBytes` is the framework's business.
   */
  parsedBody?: unknown;
  /**
   * The local address and port the connection arrived on, when the runtime tells it. A
   * loopback address turns on the default Host check (see `allowedHosts`).
   */
  localAddress?: { address: string; port: number };
}
