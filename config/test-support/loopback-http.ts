/**
 * Loopback `node:http` endpoints for the packages' tests (test-only; imported by relative path),
 * and the session routing of the official SDK 1.x node transports (sessionful Streamable HTTP,
 * HTTP+SSE). The SDK classes come from the caller, which depends on the SDK.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A listening loopback server; `close()` runs the shutdown, then closes every connection. */
export interface LoopbackServer {
  server: Server;
  /** `http://127.0.0.1:<port>/mcp` */
  url: URL;
  close(): Promise<void>;
}

/** Runs `handler` on a loopback `node:http` server; `shutdown` runs before it closes. */
export async function listenLoopback(
  handler: NodeHandler,
  shutdown: () => Promise<void> = async () => undefined,
): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await shutdown();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** A JSON-RPC error response body without an id. */
export function jsonRpcError(message: string) {
  return { jsonrpc: '2.0', id: null, error: { code: -32000, message } };
}

/** Answers `res` with `status` and a JSON-RPC error. */
export function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(jsonRpcError(message)));
}

/** A request handler with the sessions it holds, and a shutdown that closes them. */
export interface SessionRouter {
  handler: NodeHandler;
  shutdown(): Promise<void>;
  sessions: { readonly size: number };
}

/** What the router uses of SDK 1.x's `StreamableHTTPServerTransport`. */
interface StreamableTransport {
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

type StreamableClass<T> = new (options: {
  sessionIdGenerator: () => string;
  onsessioninitialized: (sessionId: string) => void;
  onsessionclosed: (sessionId: string) => void;
}) => T;

/**
 * Sessionful legacy Streamable HTTP on SDK 1.x: each `initialize` POST gets a new transport,
 * given to `connect` (which connects a fresh server); later requests go by `mcp-session-id`.
 */
export function streamableSessions<T extends StreamableTransport>(
  Transport: StreamableClass<T>,
  connect: (transport: T) => Promise<void>,
): SessionRouter {
  const sessions = new Map<string, T>();
  return {
    handler: async (req, res) => {
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known) return known.handleRequest(req, res);
      if (id !== undefined || req.method !== 'POST') return refuse(res, 404, 'unknown session');
      const transport: T = new Transport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await connect(transport);
      return transport.handleRequest(req, res);
    },
    shutdown: () => closeAll(sessions),
    sessions,
  };
}

/** What the router uses of SDK 1.x's `SSEServerTransport`. */
interface SseTransport {
  readonly sessionId: string;
  onclose?: (() => void) | undefined;
  handlePostMessage(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * The 2024-11-05 HTTP+SSE transport on SDK 1.x: `GET <ssePath>` opens the stream, whose
 * `endpoint` event names `POST /messages?sessionId=...`; any other request gets 405.
 */
export function sseSessions<T extends SseTransport>(
  Transport: new (endpoint: string, res: ServerResponse) => T,
  connect: (transport: T) => Promise<void>,
  ssePath: string,
): SessionRouter {
  const sessions = new Map<string, T>();
  return {
    handler: async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === ssePath) {
        const transport = new Transport('/messages', res);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => void sessions.delete(transport.sessionId);
        await connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) return refuse(res, 404, 'unknown session');
        return transport.handlePostMessage(req, res);
      }
      return refuse(res, 405, 'method not allowed');
    },
    shutdown: () => closeAll(sessions),
    sessions,
  };
}

async function closeAll(sessions: Map<string, { close(): Promise<void> }>): Promise<void> {
  for (const transport of sessions.values()) await transport.close();
}
