/**
 * Two linked transports in one process, for tests and for embedding a server in its host.
 * Messages travel as JSON text, exactly as on a real wire: the receiver gets a copy, values JSON
 * cannot carry (a BigInt, a cycle) fail the send, and the receiver checks the envelope.
 */
import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  parseMessage,
  type Transport,
} from '@twofold/protocol/experimental';

/** What travels between the two ends: a message's JSON text, or the peer's end of stream. */
type Frame = { kind: 'message'; text: string } | { kind: 'close' };

type State = 'new' | 'open' | 'closed';

class InMemoryTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  readonly sessionId = undefined;

  #state: State = 'new';
  // Set by link() right after both ends exist.
  #peer!: InMemoryTransport;
  // Frames received but not yet delivered; `#head` avoids an O(n) shift per delivery.
  #inbox: Frame[] = [];
  #head = 0;

  constructor(private readonly side: 'client' | 'server') {}

  link(peer: InMemoryTransport): void {
    this.#peer = peer;
  }

  async start(): Promise<void> {
    if (this.#state === 'closed') throw this.#closedError();
    if (this.#state === 'open') throw new Error(`in-memory ${this.side}: start() was called twice`);
    this.#state = 'open';
    // Frames that arrived before start are delivered now, still one per task and in order.
    for (let i = this.#head; i < this.#inbox.length; i++) queueMicrotask(() => this.#deliverNext());
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === 'new') {
      throw new LocalError(LocalErrorCode.NotConnected, `in-memory ${this.side}: not started`);
    }
    if (this.#state === 'closed' || this.#peer.#state === 'closed') throw this.#closedError();
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (cause) {
      throw new LocalError(
        LocalErrorCode.InvalidMessage,
        `in-memory ${this.side}: the message cannot be serialised as JSON`,
        { cause },
      );
    }
    this.#peer.#receive({ kind: 'message', text });
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#inbox = [];
    this.#head = 0;
    this.#peer.#receive({ kind: 'close' });
    this.onclose?.();
  }

  #receive(frame: Frame): void {
    if (this.#state === 'closed') return;
    this.#inbox.push(frame);
    // Delivery is never re-entrant inside the sender's send(): one microtask per frame.
    if (this.#state === 'open') queueMicrotask(() => this.#deliverNext());
  }

  #deliverNext(): void {
    if (this.#state !== 'open') return;
    const frame = this.#inbox[this.#head];
    if (frame === undefined) return;
    this.#head++;
    if (this.#head === this.#inbox.length) {
      this.#inbox = [];
      this.#head = 0;
    }
    if (frame.kind === 'close') {
      void this.close();
      return;
    }
    const decoded = parseMessage(frame.text);
    if (decoded.ok) this.onmessage?.(decoded.message);
    else {
      this.onerror?.(
        new LocalError(
          LocalErrorCode.InvalidMessage,
          `in-memory ${this.side}: ${decoded.error.message}`,
        ),
      );
    }
  }

  #closedError(): LocalError {
    return new LocalError(LocalErrorCode.ConnectionClosed, `in-memory ${this.side}: closed`);
  }
}

/**
 * Creates two linked transports. Each must be started before it sends; what one side sends
 * before the other has started waits for it. Delivery is asynchronous (one microtask per
 * message) and ordered; the receiver gets a copy, so later changes by the sender do not leak.
 * Closing either side closes the other after the messages already sent to it; `onclose` runs
 * once on each. `relatedRequestId` and the other send options are accepted and ignored.
 *
 * @example
 * ```ts
 * const [client, server] = createInMemoryPair();
 * server.onmessage = (message) => { ... };
 * await server.start();
 * await client.start();
 * ```
 *
 * @experimental
 */
export function createInMemoryPair(): [client: Transport, server: Transport] {
  const client = new InMemoryTransport('client');
  const server = new InMemoryTransport('server');
  client.link(server);
  server.link(client);
  return [client, server];
}
