/**
 * Shared setup of the fault tests (faults-*.test.ts): a real McpServer with tools that hang,
 * throw or wait, stdio-like, in-memory and HTTP connections to it, and heap measurement.
 */
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ProtocolError, type RequestId } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { type ServedEndpoint, StdioServerTransport, serve } from '@twofold/transports/node';
import type { McpServerOptions } from '../../src/core/options';
import {
  createServerHttpHandler,
  type ServerHttpHandlerOptions,
} from '../../src/serve/http-handler';
import { serveTransport } from '../../src/serve/serve-transport';
import { McpServer } from '../../src/server';
import { TestPeer } from './peer';

import { cleanups } from './responses';

export { ACCEPT, legacyPost, messagesOf, modernPost } from './http-posts';
export { cleanups, errorOf, resultOf, useCleanups } from './responses';
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** What the tools of {@link createServer} saw, for the assertions. */
export interface Observed {
  /** Request ids whose `hang` handler has started. */
  readonly hanging: RequestId[];
  /** Request ids whose `hang` handler observed its signal abort. */
  readonly aborted: RequestId[];
  /** The `slow` handler: started, its signal, and how it ended. */
  readonly slow: {
    started: boolean;
    signal?: AbortSignal;
    finished: boolean;
    abortedAtEnd?: boolean;
  };
  /** Resolving it lets the `slow` handler finish. */
  readonly release: Deferred<void>;
  /** Change listeners subscribed through `server.operations.onChange` and not yet removed. */
  changeListeners(): number;
}

/**
 * A real `McpServer` with tools for each fault: `echo` (validated input), `boom` (throws),
 * `protocol_boom` (throws a `ProtocolError`), `hang` (returns only when its signal aborts) and
 * `slow` (returns when the test releases it, whatever its signal says). `operations.onChange`
 * is wrapped before anything is served, to count the change listeners that are live.
 */
export function createServer(options: Partial<McpServerOptions> = {}) {
  const server = new McpServer({ name: 'faults', version: '1.0.0', ...options });
  const observed: Observed = {
    hanging: [],
    aborted: [],
    slow: { started: false, finished: false },
    release: deferred<void>(),
    changeListeners: () => live,
  };
  let live = 0;
  const operations = server.operations;
  const subscribe = operations.onChange.bind(operations);
  operations.onChange = (listener) => {
    live++;
    const unsubscribe = subscribe(listener);
    let removed = false;
    return () => {
      if (!removed) {
        removed = true;
        live--;
      }
      unsubscribe();
    };
  };
  server.registerTool({
    name: 'echo',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    },
    handler: (args: { text: string }) => args.text,
  });
  server.registerTool({
    name: 'boom',
    handler: () => {
      throw new Error('boom');
    },
  });
  server.registerTool({
    name: 'protocol_boom',
    handler: () => {
      throw new ProtocolError(-32602, 'refused by the handler');
    },
  });
  server.registerTool({
    name: 'hang',
    handler: (_args, context) =>
      new Promise<string>((resolve) => {
        observed.hanging.push(context.requestId);
        const stop = () => {
          observed.aborted.push(context.requestId);
          resolve('stopped');
        };
        if (context.signal.aborted) stop();
        else context.signal.addEventListener('abort', stop, { once: true });
      }),
  });
  server.registerTool({
    name: 'slow',
    handler: async (_args, context) => {
      observed.slow.started = true;
      observed.slow.signal = context.signal;
      await observed.release.promise;
      observed.slow.abortedAtEnd = context.signal.aborted;
      observed.slow.finished = true;
      return 'late';
    },
  });
  return { server, observed };
}

/**
 * A stdio-like connection: `serveTransport` over a `StdioServerTransport` on in-process
 * `PassThrough` streams; the client end is the same NDJSON transport on the crossed streams.
 */
export async function stdioConnection(server: McpServer, maxMessageBytes?: number) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const errors: Error[] = [];
  const connection = await serveTransport(
    server,
    new StdioServerTransport({ input: toServer, output: toClient, maxMessageBytes }),
    { onerror: (error) => errors.push(error) },
  );
  const peer = new TestPeer(new StdioServerTransport({ input: toClient, output: toServer }));
  await peer.start();
  cleanups.push(async () => {
    await peer.close();
    await connection.closed;
  });
  return { peer, connection, errors, toServer };
}

export async function memoryConnection(server: McpServer) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const errors: Error[] = [];
  const connection = await serveTransport(server, serverEnd, {
    onerror: (error) => errors.push(error),
  });
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(async () => {
    await peer.close();
    await connection.closed;
  });
  return { peer, connection, errors };
}

export const LEGACY_INIT = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'faults', version: '1' },
};

/**
 * `server` over HTTP on loopback. Every `Request` the handler gets is recorded, so a test can
 * wait until the server has seen a client's disconnect (its request signal aborts).
 */
export async function startHttp(server: McpServer, options: ServerHttpHandlerOptions = {}) {
  const errors: Error[] = [];
  const handler = createServerHttpHandler(server, {
    ...options,
    onerror: (error) => errors.push(error),
  });
  const requests: Request[] = [];
  const recording = Object.assign(
    (request: Request) => {
      requests.push(request);
      return handler(request);
    },
    { close: () => handler.close() },
  );
  const endpoint: ServedEndpoint = await serve(recording, { host: '127.0.0.1', port: 0 });
  cleanups.push(() => endpoint.close());
  return { url: endpoint.url, errors, requests };
}

/** A full collection, as apps/bench does: `global.gc` is not exposed by default. */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * `heapUsed` after a full collection, measured from a fresh macrotask. On `PassThrough` streams a
 * whole request/response exchange runs synchronously, so a loop of awaited round trips can run
 * entirely inside one microtask drain while each write's completion callback (a
 * `process.nextTick`, holding the written line) waits behind it: those are pending, not leaked,
 * and a real pipe never defers them that way. Yielding to the event loop lets them run.
 */
export async function heapAfterGc(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

export const MiB = 1024 * 1024;
