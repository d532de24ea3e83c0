/**
 * Tiny transports for RpcConnection tests: a spy that records the options of each `send()`,
 * and a hand-driven transport whose sends, errors and close the test controls.
 */
import type {
  JsonRpcMessage,
  MessageContext,
  Transport,
  TransportSendOptions,
} from '@twofold/protocol/experimental';

/** Wraps a transport and records the options passed to each `send()`. */
export class SendSpyTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sends: { message: JsonRpcMessage; options: TransportSendOptions | undefined }[] = [];

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, context) => this.onmessage?.(message, context);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    this.sends.push({ message, options });
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The signal passed with the request of this id. */
  signalOf(id: number): AbortSignal | undefined {
    return this.sends.find((s) => 'id' in s.message && s.message.id === id && 'method' in s.message)
      ?.options?.signal;
  }
}

/** A transport driven by the test: `send()` runs `onSend`, errors and close are emitted by hand. */
export class ManualTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sent: JsonRpcMessage[] = [];
  closeCalls = 0;
  #closed = false;

  constructor(
    private readonly onSend: (message: JsonRpcMessage) => Promise<void> = async () => {},
  ) {}

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    await this.onSend(message);
  }

  async close(): Promise<void> {
    this.closeCalls++;
    this.emitClose();
  }

  /** Reports an error, as a transport does through `onerror`. */
  emitError(error: Error): void {
    if (!this.#closed) this.onerror?.(error);
  }

  /** Closes from the transport's side (once). */
  emitClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
