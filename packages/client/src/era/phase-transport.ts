/**
 * A transparent transport wrapper for the connect phase. Servers that refuse a request before
 * reading it often answer with an error whose id is `null` (the official SDK's Streamable HTTP
 * server does so with a 400 for a request without a session; some stdio servers for params they
 * cannot parse). During era detection only one request is outstanding, so such an error can only
 * be its answer: the wrapper gives it that id, which turns a probe timeout into a prompt verdict.
 * It also remembers the HTTP status of the last error answer, for the HTTP+SSE fallback rule.
 */
import {
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type MessageContext,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';

/** Wraps one transport while a connect attempt runs; the kept connection then unwraps it. */
export class ConnectPhaseTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The wrapped transport. */
  readonly inner: Transport;
  /** The HTTP status of the last error response delivered during the connect phase. */
  lastErrorStatus: number | undefined;
  readonly #outstanding = new Set<RequestId>();

  constructor(inner: Transport) {
    this.inner = inner;
    inner.onmessage = (message, context) => this.#deliver(message, context);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (isJsonRpcRequest(message)) this.#outstanding.add(message.id);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #deliver(message: JsonRpcMessage, context: MessageContext | undefined): void {
    if (isJsonRpcResponse(message)) {
      this.onmessage?.(this.#adopt(message, context), context);
      return;
    }
    this.onmessage?.(message, context);
  }

  #adopt(response: JsonRpcResponse, context: MessageContext | undefined): JsonRpcResponse {
    let adopted = response;
    const only = this.#outstanding.size === 1 ? [...this.#outstanding][0] : undefined;
    if ('error' in response && (response.id === null || response.id === undefined)) {
      if (only !== undefined) adopted = { ...response, id: only };
    }
    if (adopted.id !== null && adopted.id !== undefined) this.#outstanding.delete(adopted.id);
    if ('error' in adopted) this.lastErrorStatus = context?.httpStatus;
    return adopted;
  }
}
