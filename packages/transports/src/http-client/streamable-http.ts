/**
 * The Streamable HTTP client transport, both eras. Modern (2026-07-28): every message is its own
 * POST with the request metadata headers; the answer is JSON or an SSE stream, and closing that
 * stream cancels the request. Legacy (2025-11-25 / 2025-06-18, also carrying a negotiated
 * 2024-11-05): the same POSTs plus a session id, a GET stream for server-initiated messages,
 * resumption with `Last-Event-ID`, and `DELETE` on close.
 */
import {
  buildRequestHeaders,
  isJsonRpcResponse,
  type JsonRpcMessage,
  LATEST_VERSION,
  LocalError,
  LocalErrorCode,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  type MessageContext,
  protocolVersionOf,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { HttpChannel } from './http-channel';
import { discardBody, responseFailure } from './http-response';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type HttpFetchResponse,
  resolveReconnect,
  type StreamableHttpClientOptions,
} from './options';
import { assertOpen, type ClientState, encodeOutgoing, invalidMessage } from './outgoing';
import { interpretPostResponse } from './post-response';
import { RequestScope } from './request-scope';
import { ResponseStreams } from './response-streams';

/** 2024-11-05 predates the `MCP-Protocol-Version` header. */
const VERSION_WITHOUT_HEADER = '2024-11-05';
/** Session ids are visible ASCII (0x21–0x7E). */
const SESSION_ID_RE = /^[\x21-\x7e]+$/;

/**
 * A Streamable HTTP client transport on fetch, for the `modern` or the `legacy` era.
 *
 * `send` resolves once the server has accepted the message: for a JSON answer, after it was
 * delivered; for an SSE answer, as soon as the stream opened (its messages follow on
 * `onmessage`). A JSON-RPC error with a 4xx status is delivered with `context.httpStatus`;
 * other unusable answers reject with `HTTP_ERROR` / `UNAUTHORIZED` / `SESSION_EXPIRED` /
 * `MESSAGE_TOO_LARGE`. A request stream that ends before its response is reported on `onerror`
 * as `CONNECTION_CLOSED` with `details.requestId` (modern: the request must be re-sent; legacy:
 * only after resumption failed).
 *
 * @example
 * ```ts
 * const url = 'http://127.0.0.1:3000/mcp';
 * const transport = new StreamableHttpClientTransport({ url, era: 'modern' });
 * transport.onmessage = (message) => console.log(JSON.stringify(message));
 * await transport.start();
 * await transport.send(
 *   createRequest(1, 'tools/list', {
 *     _meta: buildRequestMeta({ protocolVersion: LATEST_VERSION, clientCapabilities: {} }),
 *   }),
 * );
 * await transport.close();
 * ```
 * @experimental
 */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The era this transport speaks. */
  readonly era: 'modern' | 'legacy';

  private readonly url: URL;
  private readonly channel: HttpChannel;
  private readonly options: StreamableHttpClientOptions;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly streams: ResponseStreams;
  private state: ClientState = 'idle';
  private closing: Promise<void> | undefined;
  private session: string | undefined;
  private version: string | undefined;

  constructor(options: StreamableHttpClientOptions) {
    this.options = options;
    this.era = options.era;
    this.url = new URL(options.url);
    this.channel = new HttpChannel(
      { fetch: options.fetch, closeFetch: options.closeFetch },
      options.headers,
      options.auth && { authorizer: options.auth, endpoint: this.url },
    );
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.version =
      options.protocolVersion ?? (options.era === 'modern' ? LATEST_VERSION : undefined);
    this.streams = new ResponseStreams({
      era: this.era,
      url: this.url,
      channel: this.channel,
      reconnect: resolveReconnect(options.reconnect),
      maxResponseBytes: this.maxResponseBytes,
      requestTimeoutMs: this.requestTimeoutMs,
      deliver: (message, context) => this.deliver(message, context),
      report: (error) => this.report(error),
      sessionHeaders: () => this.sessionHeaders(),
      sessionContext: () => this.sessionContext(),
      forgetSession: () => this.forgetSession(),
    });
  }

  /** The legacy session id from the `initialize` response, while the session lives. */
  get sessionId(): string | undefined {
    return this.session;
  }

  /** Modern: the fallback `MCP-Protocol-Version`. Legacy: the negotiated version, once set. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  /**
   * Sets the version sent as `MCP-Protocol-Version` from now on. The legacy client layer calls
   * it after `initialize` with the negotiated version (for 2024-11-05 no header is sent).
   */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error('start() may be called only once per transport');
    this.state = 'open';
  }

  /**
   * POSTs one message. `options.signal` aborts the POST and its stream: in the modern era that
   * is the request's cancellation (no notification is sent).
   */
  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    assertOpen(this.state);
    const { kind, body, method, id } = encodeOutgoing(message);
    if (this.era === 'modern' && (kind === 'result' || kind === 'error')) {
      throw invalidMessage('a modern client never sends responses');
    }
    const initializing = this.era === 'legacy' && method === 'initialize';
    if (initializing) this.startNewSession();
    const what = `POST ${method ?? 'response'}`;
    const scope = this.channel.enter(
      new RequestScope({ what, method, id }, this.requestTimeoutMs, options.signal),
    );
    let streaming = false;
    let sentSession: string | undefined;
    try {
      const headers = { ...this.messageHeaders(message), ...this.sessionHeaders() };
      sentSession = this.session;
      const sessionBound = sentSession !== undefined;
      const response = await this.channel.request(
        this.url,
        { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body },
        scope,
      );
      if (initializing && response.ok) await this.adoptSession(response, scope);
      const outcome = await interpretPostResponse(response, {
        scope,
        expectsAnswer: id !== undefined,
        sessionBound,
        maxResponseBytes: this.maxResponseBytes,
      });
      const context = this.contextFor(response);
      if (outcome.kind === 'message') this.deliver(outcome.message, context);
      if (outcome.kind === 'stream') {
        streaming = true;
        this.streams.readRequestStream(outcome.body, scope, id, context);
      }
    } catch (error) {
      const failure = scope.explain(error);
      // A late 404 of a session already replaced by a new `initialize` leaves the new one be.
      if (failure.code === LocalErrorCode.SessionExpired && this.session === sentSession) {
        this.forgetSession();
      }
      throw failure;
    } finally {
      if (!streaming) this.channel.leave(scope);
    }
  }

  /**
   * Legacy: opens the GET stream for server-initiated messages (call after initialization).
   * Resolves once it is open, or at once when the server offers none (405). It then reconnects
   * by itself with `Last-Event-ID` (honouring `retry:`); giving up is reported on `onerror`.
   */
  async openEventStream(): Promise<void> {
    assertOpen(this.state);
    if (this.era !== 'legacy') {
      throw new Error('openEventStream() is legacy only; modern servers use subscriptions/listen');
    }
    await this.streams.openEventStream();
  }

  /** Aborts every exchange, deletes the legacy session, runs `closeFetch`, then `onclose`. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const wasOpen = this.state === 'open';
    this.state = 'closing';
    this.channel.abortAll(new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed'));
    if (wasOpen && this.session !== undefined) await this.deleteSession();
    await this.channel.shutdown();
    this.state = 'closed';
    this.onclose?.();
  }

  private async deleteSession(): Promise<void> {
    const timeout = this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    const scope = this.channel.enter(new RequestScope({ what: 'DELETE session' }, timeout));
    try {
      const headers = this.sessionHeaders();
      const response = await this.channel.request(this.url, { method: 'DELETE', headers }, scope);
      // 405: the server does not let clients end sessions; 404: it is gone already.
      if (response.ok || response.status === 405 || response.status === 404) {
        await discardBody(response);
      } else this.report(await responseFailure(response, scope, `HTTP ${response.status}`));
    } catch (error) {
      this.report(scope.explain(error));
    } finally {
      this.channel.leave(scope);
    }
  }

  /** Modern: the request metadata headers of the message. Legacy: none. */
  private messageHeaders(message: JsonRpcMessage): Record<string, string> {
    if (this.era === 'legacy' || isJsonRpcResponse(message)) return {};
    const version = protocolVersionOf(message.params) ?? this.version ?? LATEST_VERSION;
    const tool = message.method === 'tools/call' ? message.params?.name : undefined;
    const params = typeof tool === 'string' ? (this.options.headerParams?.(tool) ?? []) : [];
    try {
      return buildRequestHeaders(message, version, params);
    } catch (cause) {
      throw invalidMessage(cause instanceof Error ? cause.message : String(cause));
    }
  }

  /** Legacy: the session id and the negotiated version. */
  private sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.era !== 'legacy') return headers;
    if (this.session !== undefined) headers[MCP_SESSION_ID_HEADER] = this.session;
    if (this.version !== undefined && this.version !== VERSION_WITHOUT_HEADER) {
      headers[MCP_PROTOCOL_VERSION_HEADER] = this.version;
    }
    return headers;
  }

  private async adoptSession(response: HttpFetchResponse, scope: RequestScope): Promise<void> {
    const sessionId = response.headers.get(MCP_SESSION_ID_HEADER);
    if (sessionId === null) return;
    if (!SESSION_ID_RE.test(sessionId)) {
      throw await responseFailure(
        response,
        scope,
        'the Mcp-Session-Id header is not visible ASCII',
      );
    }
    this.session = sessionId;
  }

  /** A new `initialize` starts over: no session id, no version header, no old GET stream. */
  private startNewSession(): void {
    this.forgetSession();
    this.version = this.options.protocolVersion;
  }

  private forgetSession(): void {
    this.session = undefined;
    this.streams.stopEventStream();
  }

  private contextFor(response: HttpFetchResponse): MessageContext {
    return { httpStatus: response.status, ...this.sessionContext() };
  }

  private sessionContext(): MessageContext {
    return this.session === undefined ? {} : { sessionId: this.session };
  }

  private deliver(message: JsonRpcMessage, context: MessageContext): void {
    if (this.state !== 'open') return;
    try {
      this.onmessage?.(message, context);
    } catch (error) {
      // A throwing handler must not break the stream that carried the message.
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private report(error: Error): void {
    if (this.state !== 'closed') this.onerror?.(error);
  }
}

const POST_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
};
