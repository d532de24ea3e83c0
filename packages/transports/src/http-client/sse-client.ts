/**
 * The 2024-11-05 HTTP+SSE client transport (deprecated by the spec, still met in the wild): one
 * long GET stream whose first `endpoint` event names the URL to POST every client message to;
 * server messages arrive as `message` events on the stream. No sessions, no resumption: when the
 * stream ends, the transport closes.
 */
import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type MessageContext,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { HttpChannel } from './http-channel';
import { discardBody, mediaTypeOf, responseFailure } from './http-response';
import {
  DEFAULT_ENDPOINT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type SseClientOptions,
} from './options';
import { assertOpen, type ClientState, encodeOutgoing } from './outgoing';
import { RequestScope } from './request-scope';
import { consumeSse } from './sse-consumer';

/**
 * A client for the 2024-11-05 HTTP+SSE transport. `start()` resolves once the `endpoint` event
 * arrived (it must be same-origin with the SSE URL); `send` POSTs and resolves on 2xx, else
 * rejects with `HTTP_ERROR` or `UNAUTHORIZED`.
 *
 * @experimental
 */
export class SseClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private readonly url: URL;
  private readonly channel: HttpChannel;
  private readonly options: SseClientOptions;
  private state: ClientState = 'idle';
  private closing: Promise<void> | undefined;
  private postUrl: URL | undefined;
  private endpointWaiter:
    | { resolve: (url: URL) => void; reject: (error: LocalError) => void }
    | undefined;

  constructor(options: SseClientOptions) {
    this.options = options;
    this.url = new URL(options.url);
    this.channel = new HttpChannel(
      { fetch: options.fetch, closeFetch: options.closeFetch },
      options.headers,
      options.auth && { authorizer: options.auth, endpoint: this.url },
    );
  }

  /** The URL messages are POSTed to, once the `endpoint` event named it. */
  get endpoint(): URL | undefined {
    return this.postUrl;
  }

  /** Opens the SSE stream and waits for the `endpoint` event; on failure the transport closes. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error('start() may be called only once per transport');
    this.state = 'starting';
    const timeout = this.options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    const scope = this.channel.enter(new RequestScope({ what: 'GET SSE stream' }, timeout));
    try {
      const endpoint = new Promise<URL>((resolve, reject) => {
        this.endpointWaiter = { resolve, reject };
      });
      const headers = { Accept: 'text/event-stream' };
      const response = await this.channel.request(this.url, { method: 'GET', headers }, scope);
      if (!response.ok || mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
        throw await responseFailure(
          response,
          scope,
          `HTTP ${response.status}; expected an SSE stream`,
        );
      }
      this.channel.track(this.readStream(response.body as ReadableStream<Uint8Array>, scope));
      this.postUrl = await endpoint;
      // close() may have run meanwhile, or the stream ended right after the endpoint event.
      if (this.state !== 'starting' || scope.signal.aborted) {
        throw new LocalError(
          LocalErrorCode.ConnectionClosed,
          'the transport closed while starting',
        );
      }
      // The stream may now stay silent for as long as the session lasts.
      scope.pause();
      this.state = 'open';
    } catch (error) {
      const failure = scope.explain(error);
      this.endpointWaiter = undefined;
      scope.abort(failure);
      this.channel.leave(scope);
      await this.close();
      throw failure;
    }
  }

  /** POSTs one message to the endpoint. `options.signal` aborts the POST. */
  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    assertOpen(this.state);
    const { body, method, id } = encodeOutgoing(message);
    const timeout = this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const what = `POST ${method ?? 'response'}`;
    const scope = this.channel.enter(
      new RequestScope({ what, method, id }, timeout, options.signal),
    );
    try {
      const headers = { 'Content-Type': 'application/json' };
      const url = this.postUrl as URL;
      const response = await this.channel.request(url, { method: 'POST', headers, body }, scope);
      if (!response.ok) throw await responseFailure(response, scope, `HTTP ${response.status}`);
      // The answer travels on the SSE stream; this body (usually "Accepted") carries nothing.
      await discardBody(response);
    } catch (error) {
      throw scope.explain(error);
    } finally {
      this.channel.leave(scope);
    }
  }

  /** Aborts the stream and every POST, runs `closeFetch`, then `onclose`. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.state = 'closing';
    this.channel.abortAll(new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed'));
    await this.channel.shutdown();
    this.state = 'closed';
    this.onclose?.();
  }

  private async readStream(body: ReadableStream<Uint8Array>, scope: RequestScope): Promise<void> {
    const result = await consumeSse(
      body,
      {
        onMessage: (message) => {
          this.deliver(message);
          return false;
        },
        onInvalid: (error) => this.report(error),
        onActivity: () => {},
        // HTTP+SSE has no resumption, so a reconnection time means nothing here.
        onRetry: () => {},
        onOtherEvent: (event) => {
          if (event.type === 'endpoint') this.acceptEndpoint(event.data);
        },
      },
      {
        maxEventBytes: this.options.maxEventBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        signal: scope.signal,
      },
    );
    this.channel.leave(scope);
    const waiter = this.endpointWaiter;
    if (waiter !== undefined) {
      this.endpointWaiter = undefined;
      waiter.reject(
        scope.failure ??
          new LocalError(
            LocalErrorCode.ConnectionClosed,
            'the SSE stream ended before the endpoint event',
            {
              cause: result.error,
            },
          ),
      );
      return;
    }
    if (scope.signal.aborted || this.state === 'closing' || this.state === 'closed') return;
    if (result.error !== undefined || result.truncated) {
      this.report(
        new LocalError(LocalErrorCode.ConnectionClosed, 'the SSE stream broke', {
          cause: result.error,
          details: { truncated: result.truncated },
        }),
      );
    }
    // The stream is the connection: the peer is gone. Not awaited, as close waits for this task.
    void this.close();
  }

  private acceptEndpoint(data: string): void {
    const waiter = this.endpointWaiter;
    if (waiter === undefined) {
      this.report(
        new LocalError(LocalErrorCode.InvalidMessage, 'ignored a repeated endpoint event', {
          details: { endpoint: data },
        }),
      );
      return;
    }
    this.endpointWaiter = undefined;
    let url: URL;
    try {
      url = new URL(data, this.url);
    } catch (cause) {
      waiter.reject(
        new LocalError(LocalErrorCode.HttpError, 'the endpoint event is not a URL', {
          cause,
          details: { endpoint: data },
        }),
      );
      return;
    }
    if (url.origin === this.url.origin) waiter.resolve(url);
    else {
      // Following another origin would send the session's messages (and headers) elsewhere.
      waiter.reject(
        new LocalError(
          LocalErrorCode.HttpError,
          `the endpoint ${url.origin} is not same-origin with the SSE stream`,
          {
            details: { endpoint: data },
          },
        ),
      );
    }
  }

  private deliver(message: JsonRpcMessage): void {
    if (this.state !== 'starting' && this.state !== 'open') return;
    try {
      this.onmessage?.(message, { httpStatus: 200 });
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private report(error: Error): void {
    if (this.state !== 'closed') this.onerror?.(error);
  }
}
