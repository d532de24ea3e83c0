/**
 * McpClient tests: `stream` targets over in-memory pairs (a real twofold `McpServer` behind
 * `serveTransport`, recording what it received), clients closed after each test, and small
 * waiting helpers that count event-loop turns instead of time.
 */
import type { JsonRpcMessage, JsonRpcRequest, Transport } from '@twofold/protocol/experimental';
import {
  type McpServer,
  type ServedConnection,
  serveTransport,
} from '@twofold/server/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { afterEach } from 'vitest';
import { McpClient } from '../../src/client';
import type { ClientWarning, McpClientOptions, ServerTarget } from '../../src/types';

const cleanups: (() => Promise<unknown>)[] = [];

/** Registers the after-each hook that runs the cleanups of the file's tests, newest first. */
export function useClientCleanups(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
}

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

export const CLIENT_INFO = { name: 'client-test', version: '1.0.0' };

/** The two eras every API test runs in. */
export const ERAS = ['modern', 'legacy'] as const;
export type Era = (typeof ERAS)[number];

/** A transport that records every message it delivers to its owner. */
export class RecordingTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  constructor(
    private readonly inner: Transport,
    readonly received: JsonRpcMessage[],
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, context) => {
      this.received.push(message);
      this.onmessage?.(message, context);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A real server behind a `stream` target; every `open()` serves a fresh in-memory pair. */
export interface ServedTarget {
  target: Extract<ServerTarget, { kind: 'stream' }>;
  /** Every message the server received, over every connection, in order. */
  received: JsonRpcMessage[];
  /** The requests the server received (of `method`, when given). */
  requests(method?: string): JsonRpcRequest[];
  /** The served connections, one per `open()`. */
  connections: Promise<ServedConnection>[];
}

/** Serves `server` to every connection the target opens. */
export function serveTarget(server: McpServer, key = 'memory:twofold'): ServedTarget {
  const received: JsonRpcMessage[] = [];
  const connections: Promise<ServedConnection>[] = [];
  const target: ServedTarget['target'] = {
    kind: 'stream',
    key,
    open: () => {
      const [clientEnd, serverEnd] = createInMemoryPair();
      const served = serveTransport(server, new RecordingTransport(serverEnd, received));
      connections.push(served);
      onCleanup(async () => (await served).close());
      return clientEnd;
    },
  };
  const requests = (method?: string) =>
    received.filter(
      (m): m is JsonRpcRequest =>
        'method' in m && 'id' in m && (method === undefined || m.method === method),
    );
  return { target, received, requests, connections };
}

/** What a test client reported through its callbacks. */
export interface ClientRecord {
  warnings: ClientWarning[];
  notifications: { method: string; params: Record<string, unknown> | undefined }[];
}

/** Connects a client (closed after the test) that records its warnings and notifications. */
export async function connectClient(
  target: ServerTarget,
  options: Partial<McpClientOptions> = {},
): Promise<{ client: McpClient } & ClientRecord> {
  const record: ClientRecord = { warnings: [], notifications: [] };
  const client = new McpClient({
    clientInfo: CLIENT_INFO,
    requestTimeoutMs: 10_000,
    onWarning: (warning) => record.warnings.push(warning),
    onNotification: (method, params) => record.notifications.push({ method, params }),
    ...options,
  });
  onCleanup(() => client.close());
  await client.connect(target);
  return { client, ...record };
}

/** Waits (a bounded number of event-loop turns, no timers) until `condition` holds. */
export async function eventually(condition: () => boolean, turns = 5000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}

/** A promise with its resolver, for handlers the test releases. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
