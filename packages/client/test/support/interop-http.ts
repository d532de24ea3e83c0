/**
 * HTTP servers built by others, on loopback: the official SDK 2.4.0 (`createMcpHandler`, and a
 * hand-wired sessionful legacy Streamable HTTP endpoint), and SDK 1.32.2's legacy Streamable
 * HTTP and 2024-11-05 HTTP+SSE transports on plain `node:http`. Every endpoint counts its
 * sockets, so a test can see the client left none open.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  createMcpHandler,
  type ServerNotifier,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { serve } from '@twofold/transports/node';
import {
  jsonRpcError,
  listenLoopback,
  type SessionRouter,
  sseSessions,
  streamableSessions,
} from '../../../../config/test-support/loopback-http.ts';
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
export function sdkV1StreamableEndpoint(): Promise<InteropEndpoint> {
  return listenNode(
    streamableSessions(StreamableHTTPServerTransport, (transport) =>
      createSdkV1Server().connect(transport),
    ),
  );
}

/**
 * SDK 1.32.2 `SSEServerTransport`: the 2024-11-05 HTTP+SSE transport. `GET <ssePath>` opens
 * the stream, whose `endpoint` event names `POST /messages?sessionId=...`. Any other request
 * gets 405 (what a server that predates Streamable HTTP answers a POST to its SSE path with).
 */
export function sdkV1SseEndpoint(ssePath = '/sse'): Promise<InteropEndpoint> {
  return listenNode(
    sseSessions(SSEServerTransport, (transport) => createSdkV1Server().connect(transport), ssePath),
  );
}

/** Serves `router` on loopback `node:http`, counting sockets; closed after the test. */
async function listenNode({
  handler,
  shutdown,
  sessions,
}: SessionRouter): Promise<InteropEndpoint> {
  const { server, url, close } = await listenLoopback(handler, shutdown);
  return closeAfterTest(withSocketCount(server, url, close, sessions));
}

function withSocketCount(
  server: Server,
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
