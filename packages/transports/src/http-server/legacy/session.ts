/**
 * A legacy Streamable HTTP session, server side (2025-11-25 / 2025-06-18 / 2024-11-05): the
 * `Transport` the server's legacy protocol logic talks to. Requests arrive on POSTs that stay
 * open until answered; unrelated server messages go to the session's GET stream.
 */
import {
  type DecodedMessage,
  ErrorCode,
  isJsonRpcResponse,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  type MessageContext,
  type RequestId,
  RequestIdMap,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { PostExchange } from '../exchange';
import type { IncomingRequest } from '../incoming';
import { type Answer, acceptedResponse, errorResponse, sseReply } from '../responses';
import { SseStream } from '../sse-stream';
import type { EventStore, HttpMessageContext, LegacySession } from '../types';
import { RequestStream } from './request-stream';
import { StandaloneStream } from './standalone-stream';

/** Options of {@link HttpLegacySession}. */
export interface HttpLegacySessionOptions {
  /** Undefined for the one-shot sessions of stateless mode. */
  sessionId: string | undefined;
  store: EventStore | undefined;
  /** The `retry:` of priming events (`LegacyHooks.retryIntervalMs`). */
  retryIntervalMs?: number | undefined;
  maxQueuedMessages: number;
  keepAliveIntervalMs: number;
  /** Called once when the session has closed, before `onclose`. */
  onClosed: () => void;
}

/** The revision that introduced priming events. */
const PRIMING_VERSION = '2025-11-25';

/** The core's {@link LegacySession}. */
export class HttpLegacySession implements LegacySession {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sessionId: string | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly requests = new RequestIdMap<RequestStream>();
  private readonly standalone: StandaloneStream;
  private readonly responseHeaders: Record<string, string>;
  private initializeId: RequestId | undefined;

  constructor(private readonly options: HttpLegacySessionOptions) {
    this.sessionId = options.sessionId;
    this.standalone = new StandaloneStream(options.store, options.maxQueuedMessages);
    this.responseHeaders =
      options.sessionId === undefined ? {} : { [MCP_SESSION_ID_HEADER]: options.sessionId };
  }

  /** Whether a client is connected or a request is in flight (the session is not idle). */
  get busy(): boolean {
    return this.requests.size > 0 || this.standalone.isOpen;
  }

  async start(): Promise<void> {
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'open') throw new Error('The legacy HTTP session was already started');
    this.state = 'open';
  }

  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.state === 'new') {
      throw new LocalError(LocalErrorCode.NotConnected, 'The legacy HTTP session is not started');
    }
    if (this.state === 'closed') throw this.closedError();
    if (isJsonRpcResponse(message)) {
      const request = message.id == null ? undefined : this.requests.get(message.id);
      if (request === undefined) {
        throw new LocalError(
          LocalErrorCode.InvalidMessage,
          `No pending request has the id ${JSON.stringify(message.id)}`,
        );
      }
      try {
        await request.send(message, true);
      } finally {
        this.finishRequest(request.requestId);
        // A failed initialize leaves nothing to continue: the client must start over.
        if ('error' in message && request.requestId === this.initializeId) void this.close();
      }
      return;
    }
    const related = options.relatedRequestId;
    const request = related === undefined ? undefined : this.requests.get(related);
    if (request !== undefined) return request.send(message, false);
    if (this.sessionId === undefined) {
      throw new LocalError(
        LocalErrorCode.ConnectionClosed,
        'A stateless legacy session has no stream for messages unrelated to a request',
      );
    }
    return this.standalone.send(message);
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const request of this.requests.values()) {
      request.close(() =>
        errorResponse(
          404,
          { code: ErrorCode.InvalidRequest, message: 'The session has been closed' },
          { id: request.requestId },
        ),
      );
    }
    this.requests.clear();
    this.standalone.close();
    this.options.onClosed();
    this.onclose?.();
  }

  /**
   * Answers a POST of this session: requests stay open until answered, the rest get 202.
   * `closeOnError` marks the `initialize` request, whose error answer ends the session; `auth`
   * is the POST's grant, handed on with its message.
   */
  handlePost(
    request: IncomingRequest,
    decoded: DecodedMessage,
    options: { closeOnError?: boolean; auth?: unknown } = {},
  ): Promise<Answer> {
    const id = decoded.kind === 'request' ? decoded.message.id : undefined;
    const refusal = this.refuse(id);
    if (refusal !== undefined) return Promise.resolve(refusal);
    const context: HttpMessageContext = {
      headers: request.headerRecord(),
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(options.auth === undefined ? {} : { auth: options.auth }),
    };
    if (decoded.kind !== 'request') {
      this.deliver(decoded.message, context);
      // A one-shot session has nothing more to carry once the message is handed over.
      if (this.sessionId === undefined) void this.close();
      return Promise.resolve(acceptedResponse(this.responseHeaders));
    }
    const requestId = decoded.message.id;
    if (this.requests.has(requestId)) {
      return Promise.resolve(
        errorResponse(
          400,
          { code: ErrorCode.InvalidRequest, message: 'A request with this id is still pending' },
          { id: requestId, headers: this.responseHeaders },
        ),
      );
    }
    if (options.closeOnError === true) this.initializeId = requestId;
    const streamId = crypto.randomUUID();
    const store = this.options.store;
    const priming =
      this.sessionId !== undefined &&
      store?.storePrimingEvent !== undefined &&
      request.header(MCP_PROTOCOL_VERSION_HEADER) === PRIMING_VERSION;
    const exchange = new PostExchange({
      request,
      sessionId: this.sessionId,
      auth: options.auth,
      keepAliveIntervalMs: this.options.keepAliveIntervalMs,
      errorStatuses: false,
      responseHeaders: this.responseHeaders,
      primingId: priming ? () => this.primingId(streamId) : undefined,
      retryIntervalMs: this.options.retryIntervalMs,
      // A client that disconnects has not cancelled (legacy rule): the request stays pending.
      onEnd: (reason) => {
        if (reason !== 'disconnected') this.finishRequest(requestId);
      },
    });
    this.requests.set(requestId, new RequestStream(requestId, streamId, exchange, store));
    // Only a primed stream can be closed: the client needs an event id to resume from.
    const closeStream = priming ? { closeStream: () => exchange.closeStream() } : {};
    this.deliver(decoded.message, { ...context, signal: exchange.signal, ...closeStream });
    return exchange.response;
  }

  /** Opens the session's GET stream (409 while one is open). */
  openStandalone(request: IncomingRequest): Answer {
    if (this.standalone.isOpen) {
      return errorResponse(
        409,
        {
          code: ErrorCode.InvalidRequest,
          message: 'A GET stream is already open for this session',
        },
        { headers: this.responseHeaders },
      );
    }
    const sink = this.newSink();
    const wantsPriming = request.header(MCP_PROTOCOL_VERSION_HEADER) === PRIMING_VERSION;
    const primingId = wantsPriming ? () => this.primingId(this.standalone.streamId) : undefined;
    this.standalone.attach(sink, { primingId }).catch((error) => this.reportError(error));
    return this.sseResponse(sink);
  }

  /**
   * Serves a GET with `Last-Event-ID`: replays what the store kept after it, then continues
   * the stream it belonged to (the GET stream, or a pending request's stream).
   */
  resume(lastEventId: string, store: EventStore): Answer {
    const sink = this.newSink();
    const held = [...this.requests.values()];
    for (const request of held) request.hold();
    const replayed = new Set<string>();
    const run = async () => {
      const streamId = await store.replayEventsAfter(lastEventId, async (eventId, message) => {
        replayed.add(eventId);
        await sink.writeMessage(message, eventId);
      });
      const target = held.find((request) => request.streamId === streamId);
      if (target !== undefined && this.requests.has(target.requestId)) {
        await target.attachResumed(sink, replayed);
      } else if (streamId === undefined || streamId === this.standalone.streamId) {
        await this.standalone.attach(sink, { replayed });
      } else {
        // A request stream that has completed: the replay was all there is.
        sink.close();
      }
    };
    run()
      .catch((error) => {
        sink.close();
        this.reportError(error);
      })
      .finally(() => {
        for (const request of held) request.release();
      });
    return this.sseResponse(sink);
  }

  private refuse(id: RequestId | undefined): Answer | undefined {
    if (this.state === 'open') return undefined;
    if (this.state === 'closed') {
      return errorResponse(
        404,
        { code: ErrorCode.InvalidRequest, message: 'The session has been closed' },
        { id },
      );
    }
    this.reportError(
      new LocalError(LocalErrorCode.NotConnected, 'onSession did not start the session'),
    );
    return errorResponse(
      500,
      { code: ErrorCode.InternalError, message: 'The session is not ready' },
      { id, headers: this.responseHeaders },
    );
  }

  private deliver(message: JsonRpcMessage, context: HttpMessageContext): void {
    if (this.onmessage === undefined) {
      this.reportError(
        new LocalError(LocalErrorCode.NotConnected, 'The legacy session has no onmessage handler'),
      );
      return;
    }
    try {
      this.onmessage(message, context);
    } catch (error) {
      this.reportError(error);
    }
  }

  private finishRequest(requestId: RequestId): void {
    if (!this.requests.delete(requestId)) return;
    if (this.sessionId === undefined && this.requests.size === 0) void this.close();
  }

  private async primingId(streamId: string): Promise<string | undefined> {
    return this.options.store?.storePrimingEvent?.(streamId);
  }

  /** A GET stream's body. It opens with a comment, not an event: no event id moves. */
  private newSink(): SseStream {
    return new SseStream({
      keepAliveIntervalMs: this.options.keepAliveIntervalMs,
      openingComment: 'open',
    });
  }

  private sseResponse(sink: SseStream): Answer {
    return sseReply(sink.body, this.responseHeaders);
  }

  private reportError(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  private closedError(): LocalError {
    return new LocalError(LocalErrorCode.ConnectionClosed, 'The legacy HTTP session has closed');
  }
}
