/**
 * HTTP servers for the era detection tests, all on 127.0.0.1 with an ephemeral port: a twofold
 * `McpServer` endpoint, the official SDK 1.32.2 Streamable HTTP server (legacy) and its
 * 2024-11-05 SSE server, and tiny `node:http` servers that answer one status or never answer.
 * Each one counts its open sockets, so a test can check that nothing was left connected.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { onCleanup } from './era-targets';

/** A running test server. */
export interface TestHttpServer {
  /** The URL of `path` on the server. */
  url(path?: string): URL;
  /** Sockets currently open on the server. */
  openSockets(): number;
  /** Methods and paths of the requests received, in order (`POST /mcp`). */
  readonly requests: string[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Serves `handler` on 127.0.0.1 until the test ends. */
export async function startHttp(handler: Handler): Promise<TestHttpServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
    Promise.resolve(handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const sockets = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: (path = '/mcp') => new URL(path, `http://127.0.0.1:${port}`),
    openSockets: () => sockets.size,
    requests,
  };
}

/** Waits (bounded) until the server has no open socket; returns how many are left. */
export async function settledSockets(server: TestHttpServer): Promise<number> {
  for (let i = 0; i < 100 && server.openSockets() > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return server.openSockets();
}

/**
 * A twofold `McpServer` endpoint at `/` (both eras unless `legacy: false`). With `get`, every
 * GET waits for that response instead, as Bun holds the headers of a stream that says nothing.
 */
export async function startTwofoldHttp(
  options: { legacy?: false; get?: Promise<Response> } = {},
): Promise<TestHttpServer> {
  const server = new McpServer({ name: 'twofold-http', version: '1.0.0' });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: ({ text }) => String(text),
  });
  const { get, ...handlerOptions } = options;
  const handler = createServerHttpHandler(server, handlerOptions);
  const endpoint = await serve(
    (request, context) =>
      get !== undefined && request.method === 'GET' ? get : handler(request, context),
    { port: 0 },
  );
  onCleanup(() => endpoint.close());
  const sockets = trackSockets(endpoint.server);
  return {
    url: (path = '/') => new URL(path, endpoint.url),
    openSockets: () => sockets.size,
    requests: [],
  };
}

function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

function sdkServer(): SdkMcpServer {
  const server = new SdkMcpServer({ name: 'sdk-legacy', version: '1.0.0' });
  server.registerTool('echo', { description: 'Says hello' }, async () => ({
    content: [{ type: 'text', text: 'hello' }],
  }));
  return server;
}

/**
 * The official SDK's Streamable HTTP server with sessions, at `/mcp`: one transport serves
 * every request, so a request before `initialize` gets the SDK's own answer.
 */
export async function startSdkStreamable(): Promise<TestHttpServer> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  const server = sdkServer();
  await server.connect(transport);
  onCleanup(() => server.close());
  return startHttp((req, res) => transport.handleRequest(req, res));
}

/**
 * The official SDK's 2024-11-05 HTTP+SSE server: GET `/mcp` opens the event stream, whose
 * `endpoint` event names `/messages`; a POST to `/mcp` is refused with 405.
 */
export async function startSdkSse(): Promise<TestHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();
  return startHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/mcp') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await sdkServer().connect(transport);
      return;
    }
    const session = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && session) {
      await session.handlePostMessage(req, res);
      return;
    }
    res.writeHead(url.pathname === '/mcp' ? 405 : 404, { Allow: 'GET' }).end();
  });
}

/** Answers every request with `status` (and a short text body). */
export function startStatus(status: number, headers: Record<string, string> = {}) {
  return startHttp((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(`status ${status}`);
  });
}

/** Reads every request and never answers. */
export function startSilent() {
  return startHttp((req) => {
    req.resume();
  });
}
