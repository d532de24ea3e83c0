/**
 * HTTP endpoints built with the official SDKs, on loopback: 2.4.0's `createMcpHandler`
 * (dual-era, on twofold's `serve`), and 1.32.2's sessionful legacy `StreamableHTTPServerTransport`
 * on plain `node:http`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { serve } from '@twofold/transports/node';
import { createOfficialServer } from '../fixtures/official-server.mjs';
import { createSdkV1Server } from '../fixtures/sdk-v1-server.mjs';
import type { Endpoint } from './targets';

/** The official 2.4.0 handler: modern requests, and stateless legacy serving. */
export async function officialHttp(): Promise<Endpoint> {
  const handler = createMcpHandler(() => createOfficialServer(), { legacy: 'stateless' });
  const endpoint = await serve(handler.fetch);
  return {
    target: { kind: 'http', url: endpoint.url.href },
    close: async () => {
      await handler.close();
      await endpoint.close();
    },
  };
}

/** SDK 1.32.2 `StreamableHTTPServerTransport`, one session per `initialize`, at `/mcp`. */
export async function sdkV1Http(): Promise<Endpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    const handle = async () => {
      if (known) return known.handleRequest(req, res);
      if (id !== undefined || req.method !== 'POST') return refuse(res, 404, 'unknown session');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await createSdkV1Server().connect(transport);
      return transport.handleRequest(req, res);
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    target: { kind: 'http', url: `http://127.0.0.1:${port}/mcp` },
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

/** SDK 1.32.2 `SSEServerTransport`: the 2024-11-05 HTTP+SSE transport (`GET /mcp`, `POST /messages`). */
export async function sdkV1Sse(): Promise<Endpoint> {
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  const sessions = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handle = async () => {
      if (req.method === 'GET' && url.pathname === '/mcp') {
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
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    target: { kind: 'http', url: `http://127.0.0.1:${port}/mcp` },
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
