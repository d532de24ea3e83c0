/**
 * A scripted JSON-RPC peer on the server end of an in-memory pair, for RpcConnection tests:
 * the test awaits what the connection sent and writes the answers by hand.
 */
import {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
  type ErrorObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  type Transport,
} from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { RpcConnection } from '../../src/rpc/connection';
import type { RpcConnectionOptions } from '../../src/rpc/types';

/** Values pushed by callbacks, awaited one at a time by the test. */
export class Collector<T> {
  readonly items: T[] = [];
  #taken = 0;
  #waiters: ((value: T) => void)[] = [];

  readonly push = (value: T): void => {
    this.items.push(value);
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      this.#taken++;
      waiter(value);
    }
  };

  /** The next value not taken yet (waits for it). */
  next(): Promise<T> {
    const value = this.items[this.#taken];
    if (this.#taken < this.items.length) {
      this.#taken++;
      return Promise.resolve(value as T);
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** The scripted end of the pair. */
export class ScriptedPeer {
  readonly received: JsonRpcMessage[] = [];
  #unread: JsonRpcMessage[] = [];
  #waiters: { match: (m: JsonRpcMessage) => boolean; resolve: (m: JsonRpcMessage) => void }[] = [];
  #nextId = 1000;

  constructor(readonly transport: Transport) {
    transport.onmessage = (message) => {
      this.received.push(message);
      const index = this.#waiters.findIndex((w) => w.match(message));
      const waiter = this.#waiters[index];
      if (waiter !== undefined) {
        this.#waiters.splice(index, 1);
        waiter.resolve(message);
      } else this.#unread.push(message);
    };
  }

  /** The next unread message that matches (waits for it). */
  next(match: (message: JsonRpcMessage) => boolean = () => true): Promise<JsonRpcMessage> {
    const index = this.#unread.findIndex(match);
    const found = this.#unread[index];
    if (found !== undefined) {
      this.#unread.splice(index, 1);
      return Promise.resolve(found);
    }
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** The next request (of `method`, when given). */
  async nextRequest(method?: string): Promise<JsonRpcRequest> {
    const found = await this.next(
      (m) => 'method' in m && 'id' in m && (method === undefined || m.method === method),
    );
    return found as JsonRpcRequest;
  }

  /** The next notification (of `method`, when given). */
  async nextNotification(method?: string): Promise<JsonRpcNotification> {
    const found = await this.next(
      (m) => 'method' in m && !('id' in m) && (method === undefined || m.method === method),
    );
    return found as JsonRpcNotification;
  }

  /** The next response (to `id`, when given). */
  async nextResponse(id?: RequestId): Promise<JsonRpcResponse> {
    const found = await this.next((m) => !('method' in m) && (id === undefined || m.id === id));
    return found as JsonRpcResponse;
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.transport.send(message);
  }

  respond(id: RequestId, result: Record<string, unknown>): Promise<void> {
    return this.send(createResultResponse(id, result));
  }

  respondError(id: RequestId, error: ErrorObject): Promise<void> {
    return this.send(createErrorResponse(id, error));
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.send(createNotification(method, params));
  }

  /** Sends a server-to-client request; returns its id. */
  async request(method: string, params?: Record<string, unknown>): Promise<number> {
    const id = this.#nextId++;
    await this.send(createRequest(id, method, params));
    return id;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** A started connection, its scripted peer and what its callbacks received. */
export interface RpcPair {
  connection: RpcConnection;
  peer: ScriptedPeer;
  errors: Collector<Error>;
  notifications: Collector<JsonRpcNotification>;
  closes: Collector<Error | undefined>;
}

/**
 * Connects an `RpcConnection` to a scripted peer. `wrap` may put a spy around the client end.
 */
export async function createRpcPair(
  options: Partial<RpcConnectionOptions> = {},
  wrap: (transport: Transport) => Transport = (t) => t,
): Promise<RpcPair> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const errors = new Collector<Error>();
  const notifications = new Collector<JsonRpcNotification>();
  const closes = new Collector<Error | undefined>();
  const connection = new RpcConnection(wrap(clientEnd), {
    requestTimeoutMs: 5000,
    cancel: { notify: true, abortExchange: false },
    onError: errors.push,
    onNotification: (n) => notifications.push(n),
    onClose: closes.push,
    ...options,
  });
  const peer = new ScriptedPeer(serverEnd);
  await serverEnd.start();
  await connection.start();
  return { connection, peer, errors, notifications, closes };
}

/** Settles after pending macrotasks (delivery in the in-memory pair is by microtasks). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
