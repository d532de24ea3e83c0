// The transport contract over stdio. The client spawns a real child (`relay.mjs`), which pipes
// its stdin and stdout to a loopback socket; the server end is a StdioServerTransport on that
// socket, in this process, so the suite can observe both sides.
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { afterEach, expect } from 'vitest';
import { StdioServerTransport } from '../src/node';
import { runTransportContract } from '../src/testing';
import { fixtureServer, SpawnTracker } from './fixtures/stdio/harness';

/**
 * The far end of the relay. It exists only once the child has connected, which happens after
 * the client has started, so start() waits for the connection.
 */
class RelayServerEnd implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  #inner: StdioServerTransport | undefined;
  #closed = false;

  constructor(
    private readonly listener: Server,
    private readonly connection: Promise<Socket>,
  ) {}

  async start(): Promise<void> {
    const socket = await this.connection;
    this.listener.close();
    if (this.#closed) {
      socket.destroy();
      throw new LocalError(LocalErrorCode.ConnectionClosed, 'closed before the relay connected');
    }
    const inner = new StdioServerTransport({ input: socket, output: socket });
    inner.onmessage = (message, context) => this.onmessage?.(message, context);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
    this.#inner = inner;
    await inner.start();
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.#inner)
      throw new LocalError(LocalErrorCode.NotConnected, 'the relay has not connected');
    return this.#inner.send(message, options);
  }

  async close(): Promise<void> {
    this.listener.close();
    if (this.#inner) return this.#inner.close();
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

const tracker = new SpawnTracker();

// The suite checks that no pipe or socket outlives a test; this also checks the pids are gone.
afterEach(async () => {
  expect(await tracker.cleanup(), 'processes left alive').toEqual([]);
});

runTransportContract({
  name: 'stdio: StdioClientTransport and a spawned child',
  createPair: async () => {
    const listener = createServer();
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const { port } = listener.address() as AddressInfo;
    const connection = once(listener, 'connection').then(([socket]) => socket as Socket);
    const client = tracker.spawn(fixtureServer('relay.mjs', [String(port)]));
    return { client, server: new RelayServerEnd(listener, connection) };
  },
});

runTransportContract({
  name: 'stdio: StdioServerTransport on both ends of two streams',
  createPair: () => {
    const up = new PassThrough();
    const down = new PassThrough();
    return {
      client: new StdioServerTransport({ input: down, output: up }),
      server: new StdioServerTransport({ input: up, output: down }),
    };
  },
});
