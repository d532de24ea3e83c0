/**
 * HTTP servers built by others, on loopback: the official SDK 2.4.0 (`createMcpHandler`, and a
 * hand-wired sessionful legacy Streamable HTTP endpoint), and SDK 1.32.2's legacy Streamable
 * HTTP and 2024-11-05 HTTP+SSE transports on plain `node:http`. Every endpoint counts its
 * sockets, so a test can see the client left none open.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  createMcpHandler,
  type ServerNotifier,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { serve } from '@twofold/transports/node';
import { createOfficialServer } from '../fixtures/interop/official-server.mjs';
import { closeAfterTest } from './interop-env';
import { createSdkV1Server } from './interop-sdk-v1';

/** A loopback endpoint closed after the test. */
export interface InteropEndpoint {
  url: URL;
  /** Sockets the server still has open. */
  openSockets(): number;
  /** Legacy sessions the server still holds (sessionful endpoints; 0 for the others). */
  sessions(): number;
  /**
   * Resolves once no socket is open (the client closed its own) and no session is left, or
   * throws after `ms`.
   */
  drained(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A web-standard handler on twofold's `serve` (loopback), closed after the test. */
export async function serveFetch(
  handler: (request: Request) => Promise<Response>,
  shutdown: () => Promise<void> = async () => undefined,
  sessions?: { readonly size: number },
): Promise<InteropEndpoint> {
  const endpoint = await serve(handler);
  const close = async () => {
    await shutdown();
    await endpoint.close();
  };
  return closeAfterTest(withSocketCount(endpoint.server, endpoint.url, close, sessions));
}

/** The official 2.4.0 entry: modern requests, and stateless legacy serving by default. */
export async function officialHandlerEndpoint(
  legacy: 'stateless' | 'reject' = 'stateless',
): Promise<InteropEndpoint & { notify: ServerNotifier }> {
  const handler = createMcpHandler(() => createOfficialServer(), { legacy });
  const endpoint = await serveFetch(handler.fetch, () => handler.close());
  return Object.assign(endpoint, { notify: handler.notify });
}

/** A hand-wired sessionful legacy endpoint on the official 2.4.0 web-standard transport. */
export async function officialLegacyEndpoint(): Promise<InteropEndpoint> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handler = async (request: Request) => {
    const id = request.headers.get('mcp-session-id');
    const known = id === null ? undefined : sessions.get(id);
    if (known) return known.handleRequest(request);
    if (id !== null || request.method !== 'POST') {
      return Response.json(jsonRpcError('unknown session'), { status: 404 });
    }
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
    await createOfficialServer().connect(transport);
    return transport.handleRequest(request);
  };
  const shutdown = async () => {
    for (const transport of sessions.values()) await transport.close();
  };
  return serveFetch(handler, shutdown, sessions);
}

/** SDK 1.32.2 `StreamableHTTPServerTransport`, sessionful, at `/mcp`. */
export async function sdkV1StreamableEndpoint(): Promise<InteropEndpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return listenNode(
    async (req, res) => {
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known) return known.handleRequest(req, res);
      if (id !== undefined || req.method !== 'POST') return refuse(res, 404, 'unknown session');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await createSdkV1Server().connect(transport);
      return transport.handleRequest(req, res);
    },
    async () => {
      for (const transport of sessions.values()) await transport.close();
    },
    sessions,
  );
}

/**
 * SDK 1.32.2 `SSEServerTransport`: the 2024-11-05 HTTP+SSE transport. `GET <ssePath>` opens
 * the stream, whose `endpoint` event names `POST /messages?sessionId=...`. Any other request
 * gets 405 (what a server that predates Streamable HTTP answers a POST to its SSE path with).
 */
export async function sdkV1SseEndpoint(ssePath = '/sse'): Promise<InteropEndpoint> {
  const sessions = new Map<string, SSEServerTransport>();
  return listenNode(
    async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === ssePath) {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => void sessions.delete(transport.sessionId);
        await createSdkV1Server().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) return refuse(res, 404, 'unknown session');
        return transport.handlePostMessage(req, res);
      }
      return refuse(res, 405, 'method not allowed');
    },
    async () => {
      for (const transport of sessions.values()) await transport.close();
    },
    sessions,
  );
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Runs `handler` on a loopback `node:http` server; `shutdown` runs before it closes. */
async function listenNode(
  handler: NodeHandler,
  shutdown: () => Promise<void>,
  sessions: { readonly size: number },
): Promise<InteropEndpoint> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  return closeAfterTest(
    withSocketCount(
      server,
      url,
      async () => {
        await shutdown();
        await new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        });
      },
      sessions,
    ),
  );
}

function withSocketCount(
  server: import('node:http').Server,
  url: URL,
  close: () => Promise<void>,
  sessions: { readonly size: number } = new Map(),
): InteropEndpoint {
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) for (const wake of waiters) wake();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    openSockets: () => sockets.size,
    sessions: () => sessions.size,
    drained: async (ms = 10_000) => {
      const deadline = Date.now() + ms;
      if (sockets.size > 0) {
        let wake: () => void = () => undefined;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve, reject) => {
          wake = resolve;
          waiters.add(wake);
          timer = setTimeout(() => reject(new Error(`${sockets.size} socket(s) still open`)), ms);
        }).finally(() => {
          waiters.delete(wake);
          clearTimeout(timer);
        });
      }
      // A server may notice a closed stream a tick after its socket closed.
      while (sessions.size > 0) {
        if (Date.now() > deadline) throw new Error(`${sessions.size} session(s) still open`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

function jsonRpcError(message: string) {
  return { jsonrpc: '2.0', id: null, error: { code: -32000, message } };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(jsonRpcError(message)));
}
