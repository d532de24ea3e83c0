/**
 * The server core as one `Transport`, for a single logical peer (tests, embedding): inbound
 * modern requests go to `onmessage`, and `send` routes each answer to the open HTTP exchange of
 * the request it answers.
 */
import {
  createErrorResponse,
  ErrorCode,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  LocalError,
  LocalErrorCode,
  type MessageContext,
  type RequestId,
  RequestIdMap,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { createHttpHandler, type HttpServerHandler } from './handler';
import type { HttpExchange, HttpServerCoreOptions } from './types';

/**
 * Options of {@link HttpServerTransport}: those of the core, without the handlers the
 * transport supplies itself.
 *
 * @experimental
 */
export type HttpServerTransportOptions = Omit<HttpServerCoreOptions, 'modern' | 'legacy'>;

/**
 * A modern (2026-07-28) Streamable HTTP endpoint as a `Transport`. Serve `handler` (e.g. with
 * `serve` from `@twofold/transports/node`); answer each request with `send(response)`, and send
 * progress or log notifications with `{ relatedRequestId }` to put them on that request's SSE
 * stream. A modern server originates no requests and has no stream for unrelated messages.
 *
 * Request ids are only unique per client, so this fits one logical client. A stateless server
 * for many clients should use `createHttpHandler` with a `ModernHandler`, which gets each
 * request's exchange directly.
 *
 * @experimental
 */
export class HttpServerTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sessionId = undefined;
  /** The web-standard handler to serve. */
  readonly handler: HttpServerHandler;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly exchanges = new RequestIdMap<HttpExchange>();

  constructor(options: HttpServerTransportOptions = {}) {
    this.handler = createHttpHandler({
      ...options,
      modern: (message, exchange) => this.receive(message, exchange),
      onerror: (error) => {
        options.onerror?.(error);
        if (this.state !== 'closed') this.onerror?.(error);
      },
    });
  }

  async start(): Promise<void> {
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'open') throw new Error('The HTTP server transport was already started');
    this.state = 'open';
  }

  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.state === 'new') {
      throw new LocalError(LocalErrorCode.NotConnected, 'The HTTP server transport is not started');
    }
    if (this.state === 'closed') throw this.closedError();
    if (isJsonRpcResponse(message)) {
      const exchange = message.id == null ? undefined : this.exchanges.get(message.id);
      if (exchange === undefined || message.id == null) throw this.noExchange(message.id);
      this.exchanges.delete(message.id);
      return exchange.respond(message);
    }
    if (isJsonRpcRequest(message)) {
      throw new LocalError(LocalErrorCode.InvalidMessage, 'A modern server does not send requests');
    }
    const related = options.relatedRequestId;
    const exchange = related === undefined ? undefined : this.exchanges.get(related);
    if (exchange === undefined) throw this.noExchange(related);
    return exchange.notify(message);
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    const open = this.exchanges.entries();
    this.exchanges.clear();
    await Promise.all(open.map(([id, exchange]) => this.refuse(exchange, id, 'closed')));
    await this.handler.close();
    this.onclose?.();
  }

  private receive(
    message: JsonRpcRequest | JsonRpcNotification,
    exchange: HttpExchange,
  ): void | Promise<void> {
    const id = isJsonRpcRequest(message) ? message.id : undefined;
    if (this.state !== 'open') {
      return id === undefined ? undefined : this.refuse(exchange, id, 'not accepting requests');
    }
    if (id !== undefined) {
      if (this.exchanges.has(id))
        return this.refuse(exchange, id, 'a request with this id is pending', 400);
      this.exchanges.set(id, exchange);
      exchange.signal.addEventListener('abort', () => {
        if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
      });
    }
    this.onmessage?.(message, { headers: exchange.headers, signal: exchange.signal });
  }

  /** Ends an exchange this transport cannot serve with an error response of the core's own. */
  private async refuse(
    exchange: HttpExchange,
    id: RequestId,
    reason: string,
    status = 503,
  ): Promise<void> {
    const code = status === 400 ? ErrorCode.InvalidRequest : ErrorCode.InternalError;
    const response = createErrorResponse(id, { code, message: `HTTP server transport: ${reason}` });
    await exchange.respond(response, { status }).catch(() => undefined);
  }

  private noExchange(id: RequestId | null | undefined): LocalError {
    return new LocalError(
      LocalErrorCode.InvalidMessage,
      `No open HTTP exchange for request id ${JSON.stringify(id)}`,
    );
  }

  private closedError(): LocalError {
    return new LocalError(LocalErrorCode.ConnectionClosed, 'The HTTP server transport has closed');
  }
}
