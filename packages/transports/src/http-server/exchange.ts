/**
 * One POST being answered: a single JSON body when the response comes first, an SSE stream
 * when anything precedes it. The HTTP `Response` is produced on the first action, so the
 * handler returns as soon as the answer's shape is known.
 */
import {
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { encodeSseEvent } from '../sse/writer';
import type { IncomingRequest } from './incoming';
import { type Answer, jsonResponse, Reply, sseReply, statusForResponse } from './responses';
import { SerialQueue } from './serial';
import { SseStream } from './sse-stream';
import type { HttpExchange } from './types';

/** Options of {@link PostExchange}. */
export interface PostExchangeOptions {
  request: IncomingRequest;
  sessionId?: string | undefined;
  /** What the access control granted the request (`HttpGrant.auth`). */
  auth?: unknown;
  keepAliveIntervalMs: number;
  /**
   * Whether a JSON error answer takes the status of its error code (modern). Legacy clients
   * expect every JSON-RPC answer in a 200. Default true.
   */
  errorStatuses?: boolean;
  /** Extra headers on the HTTP response (e.g. `Mcp-Session-Id`). */
  responseHeaders?: Record<string, string>;
  /** The event id of a priming event for the SSE stream, when the session wants one. */
  primingId?: () => Promise<string | undefined>;
  /** The `retry:` of the priming event, in milliseconds. */
  retryIntervalMs?: number | undefined;
  /** Called once when the exchange ends for any reason (answered, aborted, client gone). */
  onEnd?: (reason: 'answered' | 'aborted' | 'disconnected') => void;
}

// Status of the never-sent answer to a client that has already gone (nginx's "client closed").
const CLIENT_CLOSED_STATUS = 499;

/** The core's implementation of {@link HttpExchange}. */
export class PostExchange implements HttpExchange {
  readonly sessionId: string | undefined;
  readonly auth: unknown;
  /** Resolves with the HTTP answer as soon as its shape (JSON or SSE) is known. */
  readonly response: Promise<Answer>;
  private resolveResponse!: (response: Answer) => void;
  private phase: 'pending' | 'sse' | 'ended' = 'pending';
  private stream: SseStream | undefined;
  // Made when someone asks for the signal: most requests end without anyone listening.
  private controller: AbortController | undefined;
  private disconnect: LocalError | undefined;
  private headerValues: Record<string, string> | undefined;
  // Every action runs after the previous one, so bytes stay in call order.
  private readonly serial = new SerialQueue();
  private readonly stopWatching: () => void;

  constructor(private readonly options: PostExchangeOptions) {
    this.sessionId = options.sessionId;
    this.auth = options.auth;
    this.response = new Promise((resolve) => {
      this.resolveResponse = resolve;
    });
    this.stopWatching = options.request.onDisconnect(() => this.disconnected());
  }

  get headers(): Readonly<Record<string, string>> {
    this.headerValues ??= this.options.request.headerRecord();
    return this.headerValues;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.disconnect !== undefined) this.controller.abort(this.disconnect);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.disconnect !== undefined;
  }

  /** Whether the exchange can no longer send anything. */
  get ended(): boolean {
    return this.phase === 'ended';
  }

  notify(message: JsonRpcNotification): Promise<void> {
    return this.send(message);
  }

  /**
   * Sends any message before the response (legacy servers also send requests here), with the
   * SSE event id it was stored under, if any.
   */
  send(message: JsonRpcMessage, eventId?: string): Promise<void> {
    return this.enqueue(async () => {
      await this.ensureStream();
      await this.writeEvent(message, eventId);
    });
  }

  openStream(): Promise<void> {
    return this.enqueue(() => this.ensureStream());
  }

  /**
   * Ends the SSE stream (opened first, with its priming event) without ending the request, as
   * a client that disconnected would: the session keeps the request, and the store what follows.
   */
  closeStream(): Promise<void> {
    return this.enqueue(async () => {
      await this.ensureStream();
      this.stream?.close();
      this.end('disconnected');
    });
  }

  respond(
    message: JsonRpcResponse,
    options: { status?: number; eventId?: string | undefined } = {},
  ): Promise<void> {
    return this.enqueue(async () => {
      if (this.phase === 'pending') {
        const mapped = this.options.errorStatuses === false ? 200 : statusForResponse(message);
        const status = options.status ?? mapped;
        this.resolveResponse(jsonResponse(status, message, this.options.responseHeaders));
      } else {
        await this.writeEvent(message, options.eventId);
        this.stream?.close();
      }
      this.end('answered');
    });
  }

  /** Ends the exchange without a response: `fallback` answers a POST still waiting. */
  abort(fallback: () => Answer): void {
    if (this.phase === 'ended') return;
    if (this.phase === 'pending') this.resolveResponse(fallback());
    this.stream?.close();
    this.end('aborted');
  }

  private enqueue(action: () => Promise<void>): Promise<void> {
    return this.serial.run(() => {
      if (this.phase === 'ended') {
        throw new LocalError(LocalErrorCode.ConnectionClosed, 'The HTTP exchange has ended');
      }
      return action();
    });
  }

  private async ensureStream(): Promise<void> {
    if (this.phase !== 'pending') return;
    const stream = new SseStream({
      keepAliveIntervalMs: this.options.keepAliveIntervalMs,
      onCancel: () => this.disconnected(),
    });
    this.stream = stream;
    this.phase = 'sse';
    this.resolveResponse(sseReply(stream.body, this.options.responseHeaders ?? {}));
    const primingId = await this.options.primingId?.();
    if (primingId !== undefined) {
      const retry = this.options.retryIntervalMs;
      await stream.write(
        encodeSseEvent({ id: primingId, data: '', ...(retry === undefined ? {} : { retry }) }),
      );
    }
  }

  private async writeEvent(message: JsonRpcMessage, eventId: string | undefined): Promise<void> {
    if (this.stream === undefined || this.phase === 'ended') {
      throw new LocalError(LocalErrorCode.ConnectionClosed, 'The HTTP exchange has ended');
    }
    await this.stream.writeMessage(message, eventId);
  }

  private disconnected(): void {
    if (this.phase === 'ended') return;
    if (this.phase === 'pending') {
      this.resolveResponse(new Reply(CLIENT_CLOSED_STATUS, {}, null));
    }
    this.stream?.close();
    this.end('disconnected');
    this.disconnect = new LocalError(LocalErrorCode.ConnectionClosed, 'The client disconnected');
    this.controller?.abort(this.disconnect);
  }

  private end(reason: 'answered' | 'aborted' | 'disconnected'): void {
    this.phase = 'ended';
    this.stopWatching();
    this.options.onEnd?.(reason);
  }
}
