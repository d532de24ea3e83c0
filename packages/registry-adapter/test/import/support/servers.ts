/**
 * Purpose-built twofold servers, run in this process: over an in-memory pair (each `open()` a
 * fresh connection) or on a loopback HTTP endpoint, and views of a server through other
 * operations or a filtering transport.
 */
import type { ServerTarget } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import type { JsonRpcMessage, Transport } from '@twofold/protocol/experimental';
import {
  type McpServer,
  type Operations,
  type ServedConnection,
  type ServedServer,
  serveTransport,
} from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { serve } from '@twofold/transports/node';
import { afterTest } from './env';

export { addNamedTool, MESSAGE_INPUT, namedServer } from './named-server';

/** A stream target with the server ends of its connections. */
export interface MemoryTarget {
  target: ServerTarget;
  /** Every connection opened so far (server side), in order. */
  readonly connections: Promise<ServedConnection>[];
  /** Ends every open connection from the server side (the server goes away). */
  drop(): Promise<void>;
}

/**
 * Serves `server` over an in-memory pair per `open()`; `wrap` may stand between the server and
 * its end of the pair. Connections close after the test.
 */
export function memoryTarget(
  server: ServedServer,
  key: string,
  wrap: (serverEnd: Transport) => Transport = (end) => end,
): MemoryTarget {
  const connections: Promise<ServedConnection>[] = [];
  const drop = async () => {
    for (const connection of connections) await (await connection).close();
  };
  afterTest(drop);
  return {
    target: {
      kind: 'stream',
      key: `memory:${key}`,
      open: () => {
        const [clientEnd, serverEnd] = createInMemoryPair();
        connections.push(serveTransport(server, wrap(serverEnd)));
        return clientEnd;
      },
    },
    connections,
    drop,
  };
}

/** Serves `server` on 127.0.0.1 (closed after the test) and returns its target. */
export async function httpTarget(server: ServedServer): Promise<ServerTarget> {
  const endpoint = await serve(createServerHttpHandler(server));
  afterTest(() => endpoint.close());
  return httpServer({ url: endpoint.url });
}

/** `target` whose transports start only once `release()` is called: a server slow to connect. */
export function slowToStart(target: ServerTarget): { target: ServerTarget; release: () => void } {
  if (target.kind !== 'stream') throw new Error('a stream target is expected');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const open = () => {
    const transport = target.open();
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await gate;
      return start();
    };
    return transport;
  };
  return { target: { ...target, open }, release };
}

/**
 * `server` as served through other `operations` (same options, info and versions): lets a
 * fixture rename tools or watch listings without reaching into the server.
 */
export function withOperations(
  server: McpServer,
  change: (operations: Operations) => Partial<Operations>,
  headerName: (name: string) => string = (name) => name,
): ServedServer {
  const base = server.operations;
  const operations: Operations = {
    capabilities: () => base.capabilities(),
    listTools: (cursor) => base.listTools(cursor),
    callTool: (name, args, context) => base.callTool(name, args, context),
    listPrompts: (cursor) => base.listPrompts(cursor),
    getPrompt: (name, args, context) => base.getPrompt(name, args, context),
    listResources: (cursor) => base.listResources(cursor),
    listResourceTemplates: (cursor) => base.listResourceTemplates(cursor),
    readResource: (uri, context) => base.readResource(uri, context),
    complete: (params, context) => base.complete(params, context),
    onChange: (listener) => base.onChange(listener),
    ...change(base),
  };
  return {
    options: server.options,
    serverInfo: server.serverInfo,
    instructions: server.instructions,
    offeredVersions: server.offeredVersions,
    operations,
    headerParams: (name) => server.headerParams(headerName(name)),
  };
}

/**
 * `server` with its tools listed and called under other names (`aliases`: registered name →
 * listed name). twofold refuses to register names over 128 characters; some servers list them.
 */
export function withToolAliases(
  server: McpServer,
  aliases: Readonly<Record<string, string>>,
): ServedServer {
  const back = new Map(Object.entries(aliases).map(([own, listed]) => [listed, own]));
  const own = (name: string) => back.get(name) ?? name;
  return withOperations(
    server,
    (base) => ({
      listTools: (cursor) => {
        const page = base.listTools(cursor);
        return {
          ...page,
          tools: page.tools.map((tool) => ({ ...tool, name: aliases[tool.name] ?? tool.name })),
        };
      },
      callTool: (name, args, context) => base.callTool(own(name), args, context),
    }),
    own,
  );
}

/**
 * Stands between a server and its transport and drops the `requestState` of its
 * `input_required` results: the server then sees every retry as a first attempt, like a server
 * that keeps no round count, so a tool that always asks asks forever.
 */
export function forgetRequestState(inner: Transport): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => inner.send(withoutRequestState(message), options),
  };
  inner.onmessage = (message, context) => outer.onmessage?.(message, context);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  return outer;
}

function withoutRequestState(message: JsonRpcMessage): JsonRpcMessage {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result?.resultType !== 'input_required' || !('requestState' in result)) return message;
  const { requestState: _dropped, ...rest } = result;
  return { ...message, result: rest } as JsonRpcMessage;
}
