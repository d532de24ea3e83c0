import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  parseMessage,
  type Transport,
} from '@twofold/protocol/experimental';

/** The part of a `MessagePort` this transport uses; web and Node ports both have it. */
export interface PortLike {
  postMessage(data: unknown): void;
  addEventListener(type: 'message', listener: (event: Event) => void): void;
  removeEventListener(type: 'message', listener: (event: Event) => void): void;
  start(): void;
  close(): void;
}

/**
 * A transport over one end of a `MessageChannel`. Each message travels as its JSON text, so the
 * peer gets exactly what a byte stream would carry; `null` tells the peer this end has closed
 * (a `MessagePort` itself does not say so in every runtime).
 */
export class MessagePortTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  #state: 'new' | 'open' | 'closed' = 'new';

  constructor(private readonly port: PortLike) {}

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('start() may be called only once');
    this.#state = 'open';
    this.port.addEventListener('message', this.#receive);
    this.port.start();
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === 'new') throw new LocalError(LocalErrorCode.NotConnected, 'not started');
    if (this.#state === 'closed') throw new LocalError(LocalErrorCode.ConnectionClosed, 'closed');
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (cause) {
      throw new LocalError(LocalErrorCode.InvalidMessage, 'not serialisable as JSON', { cause });
    }
    this.port.postMessage(text);
  }

  async close(): Promise<void> {
    this.#finish(true);
  }

  #receive = (event: Event): void => {
    if (this.#state !== 'open') return;
    const data = 'data' in event ? event.data : undefined;
    if (data === null) {
      this.#finish(false);
      return;
    }
    if (typeof data !== 'string') {
      this.onerror?.(new LocalError(LocalErrorCode.InvalidMessage, 'expected JSON text'));
      return;
    }
    const decoded = parseMessage(data);
    if (decoded.ok) this.onmessage?.(decoded.message);
    else this.onerror?.(new LocalError(LocalErrorCode.InvalidMessage, decoded.error.message));
  };

  #finish(tellPeer: boolean): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (tellPeer) this.port.postMessage(null);
    this.port.removeEventListener('message', this.#receive);
    this.port.close();
    this.onclose?.();
  }
}
