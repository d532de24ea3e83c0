/**
 * The SSE streams of a Streamable HTTP client: a POST's response stream (read until the response
 * to its request; legacy: resumed through GET when it breaks after an event id) and the legacy
 * session's GET stream (kept open with reconnection).
 */
import {
  isJsonRpcResponse,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type MessageContext,
  type RequestId,
} from '@twofold/protocol/experimental';
import type { HttpChannel } from './http-channel';
import { discardBody, mediaTypeOf, responseFailure, sessionExpired } from './http-response';
import type { ResolvedReconnect } from './options';
import { RequestScope } from './request-scope';
import { type FollowOptions, followStream } from './resumable-stream';
import { consumeSse, type SseConsumeResult } from './sse-consumer';

/** What the streams need from their transport. */
export interface StreamHost {
  readonly era: 'modern' | 'legacy';
  readonly url: URL;
  readonly channel: HttpChannel;
  readonly reconnect: ResolvedReconnect;
  readonly maxResponseBytes: number;
  readonly requestTimeoutMs: number;
  deliver(message: JsonRpcMessage, context: MessageContext): void;
  report(error: Error): void;
  /** Legacy session id and version headers. */
  sessionHeaders(): Record<string, string>;
  /** The context fields naming the session, if any. */
  sessionContext(): MessageContext;
  /** The session is gone (404): forget it. */
  forgetSession(): void;
}

/** How a stream being read relates to the exchange that opened it. */
interface StreamReading {
  scope: RequestScope;
  /** The request whose response ends the reading; none for the GET stream. */
  requestId?: RequestId | undefined;
  /** Activity restarts the scope's idle timer (request streams; the GET stream may be silent). */
  idleTimed: boolean;
  context: MessageContext;
}

/** Reads a transport's SSE streams. */
export class ResponseStreams {
  private serverRetryMs: number | undefined;
  private eventStream: RequestScope | undefined;

  constructor(private readonly host: StreamHost) {}

  /**
   * Reads a POST's SSE response in the background, within `scope` (left when done). A request's
   * stream that ends before its response is reported as `CONNECTION_CLOSED`.
   */
  readRequestStream(
    body: ReadableStream<Uint8Array>,
    scope: RequestScope,
    requestId: RequestId | undefined,
    context: MessageContext,
  ): void {
    const reading = { scope, requestId, idleTimed: true, context };
    this.host.channel.track(this.followRequestStream(body, reading));
  }

  /** Opens the legacy GET stream; see `StreamableHttpClientTransport.openEventStream`. */
  async openEventStream(): Promise<void> {
    if (this.eventStream !== undefined) return;
    const { channel, requestTimeoutMs } = this.host;
    const scope = channel.enter(new RequestScope({ what: 'GET event stream' }, requestTimeoutMs));
    this.eventStream = scope;
    const reading: StreamReading = { scope, idleTimed: false, context: { httpStatus: 200 } };
    try {
      const body = await this.getStream('', reading);
      if (body === undefined) this.leaveEventStream(scope);
      else channel.track(this.followEventStream(body, reading));
    } catch (error) {
      this.leaveEventStream(scope);
      const failure = scope.explain(error);
      if (failure.code === LocalErrorCode.SessionExpired) this.host.forgetSession();
      throw failure;
    }
  }

  /** Stops the GET stream (the session ended); nothing is reported. */
  stopEventStream(): void {
    this.eventStream?.abort(new LocalError(LocalErrorCode.ConnectionClosed, 'session ended'));
  }

  private async followRequestStream(
    body: ReadableStream<Uint8Array>,
    reading: StreamReading,
  ): Promise<void> {
    const { scope, requestId } = reading;
    try {
      const result = await this.read(body, reading, '');
      if (result.stopped || requestId === undefined || scope.signal.aborted) return;
      if (this.host.era === 'modern' || result.lastEventId === '') {
        this.host.report(streamLost(requestId, result, scope));
        return;
      }
      // Legacy: the server may drop a stream early and let the client resume it through GET.
      const end = await followStream(this.followOptions(reading), result.lastEventId);
      if (end.kind === 'failed') this.fail(end.error);
    } finally {
      this.reportTimeout(scope);
      this.host.channel.leave(scope);
    }
  }

  private async followEventStream(
    body: ReadableStream<Uint8Array>,
    reading: StreamReading,
  ): Promise<void> {
    const { scope } = reading;
    const end = await followStream(this.followOptions(reading), '', body);
    this.reportTimeout(scope);
    this.leaveEventStream(scope);
    if (end.kind === 'failed') this.fail(end.error);
  }

  /** Reports a stream that cannot go on; a session found gone is forgotten first. */
  private fail(error: LocalError): void {
    if (error.code === LocalErrorCode.SessionExpired) this.host.forgetSession();
    this.host.report(error);
  }

  private followOptions(reading: StreamReading): FollowOptions {
    return {
      scope: reading.scope,
      reconnect: this.host.reconnect,
      serverRetryMs: () => this.serverRetryMs,
      connect: (lastEventId) => this.getStream(lastEventId, reading),
      read: (body, lastEventId) => this.read(body, reading, lastEventId),
      details: reading.requestId === undefined ? undefined : { requestId: reading.requestId },
    };
  }

  private read(
    body: ReadableStream<Uint8Array>,
    reading: StreamReading,
    lastEventId: string,
  ): Promise<SseConsumeResult> {
    const { scope, requestId, context } = reading;
    return consumeSse(
      body,
      {
        onMessage: (message) => {
          this.host.deliver(message, { ...context, ...this.host.sessionContext() });
          return requestId !== undefined && isJsonRpcResponse(message) && message.id === requestId;
        },
        onInvalid: (error) => this.host.report(error),
        onActivity: () => {
          if (reading.idleTimed) scope.touch();
        },
        onRetry: (ms) => {
          this.serverRetryMs = ms;
        },
      },
      {
        maxEventBytes: this.host.maxResponseBytes,
        lastEventId,
        details: requestId === undefined ? undefined : { requestId },
        signal: scope.signal,
      },
    );
  }

  /**
   * GETs an SSE stream: the session's, or a POST stream's continuation after `lastEventId`.
   * Returns `undefined` on 405 (the server offers none). The scope's timer bounds the wait for
   * the headers; it then goes on only for request streams.
   */
  private async getStream(
    lastEventId: string,
    reading: StreamReading,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    const { scope } = reading;
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      ...this.host.sessionHeaders(),
    };
    if (lastEventId !== '') headers['Last-Event-ID'] = lastEventId;
    const sessionBound = this.host.sessionContext().sessionId !== undefined;
    scope.touch();
    const response = await this.host.channel.request(
      this.host.url,
      { method: 'GET', headers },
      scope,
    );
    if (reading.idleTimed) scope.touch();
    else scope.pause();
    if (response.status === 405) {
      await discardBody(response);
      return undefined;
    }
    if (response.status === 404 && sessionBound) throw await sessionExpired(response, scope);
    if (response.ok && mediaTypeOf(response) === 'text/event-stream' && response.body) {
      return response.body as ReadableStream<Uint8Array>;
    }
    throw await responseFailure(response, scope, `HTTP ${response.status}; expected an SSE stream`);
  }

  /** A timeout is the one abort nobody else learns of. */
  private reportTimeout(scope: RequestScope): void {
    if (scope.failure?.code === LocalErrorCode.RequestTimeout) this.host.report(scope.failure);
  }

  private leaveEventStream(scope: RequestScope): void {
    if (this.eventStream === scope) this.eventStream = undefined;
    this.host.channel.leave(scope);
  }
}

function streamLost(
  requestId: RequestId,
  result: SseConsumeResult,
  scope: RequestScope,
): LocalError {
  const how = result.truncated ? 'was cut off inside an event' : 'ended';
  return new LocalError(
    LocalErrorCode.ConnectionClosed,
    `${scope.label.what}: the response stream ${how} before the response to ${JSON.stringify(requestId)}`,
    {
      cause: result.error,
      details: { ...scope.details(), requestId, truncated: result.truncated },
    },
  );
}
