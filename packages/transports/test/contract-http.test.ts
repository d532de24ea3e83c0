// The transport contract over Streamable HTTP, for both eras: the undici client against the
// server core served on 127.0.0.1.
import {
  createNotification,
  createRequest,
  createResultResponse,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { StreamableHttpClientTransport } from '../src/http';
import { createHttpHandler, HttpServerTransport, type LegacySession } from '../src/http-server';
import { serve } from '../src/node';
import { runTransportContract } from '../src/testing';

// The contract round-trips 8 MiB messages; the core's default body limit is 4 MiB.
const maxBodyBytes = 16 * 1024 * 1024;
const LEGACY_VERSION = '2025-11-25';
const INITIALIZE_ID = 'contract-initialize';

runTransportContract({
  name: 'Streamable HTTP, modern',
  createPair: async () => {
    const server = new HttpServerTransport({ maxBodyBytes });
    const endpoint = await serve(server.handler);
    const client = new StreamableHttpClientTransport({ url: endpoint.url, era: 'modern' });
    return { client, server, dispose: () => endpoint.close() };
  },
  skip: [
    {
      reason:
        'modern Streamable HTTP is stateless: there is no connection for a close to travel on',
      tests: ['propagates a client close to the server', 'closes from the server side'],
    },
  ],
});

/** The legacy client, which runs the `initialize` handshake in start() (the client layer's job). */
class InitializingClient implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  #initialized: (message: JsonRpcMessage) => void = () => {};

  constructor(private readonly inner: StreamableHttpClientTransport) {
    inner.onmessage = (message, context) => {
      if ('id' in message && message.id === INITIALIZE_ID) this.#initialized(message);
      else this.onmessage?.(message, context);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  async start(): Promise<void> {
    await this.inner.start();
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      this.#initialized = resolve;
    });
    const params = {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'contract', version: '0' },
    };
    await this.inner.send(createRequest(INITIALIZE_ID, 'initialize', params));
    const response = await answered;
    if (!('result' in response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
    this.inner.setProtocolVersion(LEGACY_VERSION);
    await this.inner.send(createNotification('notifications/initialized'));
    await this.inner.openEventStream();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The server end of one legacy session: answers `initialize` itself, forwards the rest. */
class LegacySessionEnd implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  #session: LegacySession | undefined;
  #state: 'new' | 'open' | 'closed' = 'new';
  #arrived: (session: LegacySession) => void = () => {};
  readonly #arrival = new Promise<LegacySession>((resolve) => {
    this.#arrived = resolve;
  });

  /** The core's `onSession` hook. */
  async attach(session: LegacySession): Promise<void> {
    this.#session = session;
    session.onmessage = (message, context) => {
      if ('method' in message && message.method === 'initialize' && 'id' in message) {
        const result = {
          protocolVersion: LEGACY_VERSION,
          capabilities: {},
          serverInfo: { name: 'contract', version: '0' },
        };
        session
          .send(createResultResponse(message.id, result), { relatedRequestId: message.id })
          .catch((error: Error) => this.onerror?.(error));
      } else if (!('method' in message && message.method === 'notifications/initialized')) {
        this.onmessage?.(message, context);
      }
    };
    session.onerror = (error) => this.onerror?.(error);
    session.onclose = () => this.#closed();
    await session.start();
    this.#arrived(session);
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('start() may be called only once');
    this.#state = 'open';
    await this.#arrival;
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#state === 'new' || !this.#session)
      throw new LocalError(LocalErrorCode.NotConnected, 'no session yet');
    return this.#session.send(message, options);
  }

  async close(): Promise<void> {
    if (this.#session) return this.#session.close();
    this.#closed();
  }

  #closed(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.onclose?.();
  }
}

runTransportContract({
  name: 'Streamable HTTP, legacy session',
  createPair: async () => {
    const server = new LegacySessionEnd();
    const handler = createHttpHandler({
      maxBodyBytes,
      legacy: { onSession: (session) => server.attach(session) },
    });
    const endpoint = await serve(handler);
    const inner = new StreamableHttpClientTransport({ url: endpoint.url, era: 'legacy' });
    return { client: new InitializingClient(inner), server, dispose: () => endpoint.close() };
  },
  skip: [
    {
      reason:
        'a legacy server ends a session without telling the client, which learns it from the ' +
        'next request (404, SESSION_EXPIRED) and initializes again instead of closing',
      tests: ['closes from the server side'],
    },
  ],
});
