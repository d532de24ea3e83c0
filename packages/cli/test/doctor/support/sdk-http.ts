/**
 * HTTP endpoints built with the official SDKs, on loopback: 2.4.0's `createMcpHandler`
 * (dual-era, on twofold's `serve`), and 1.32.2's sessionful legacy `StreamableHTTPServerTransport`
 * on plain `node:http`.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { serve } from '@twofold/transports/node';
import {
  listenLoopback,
  type SessionRouter,
  sseSessions,
  streamableSessions,
} from '../../../../../config/test-support/loopback-http.ts';
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
export function sdkV1Http(): Promise<Endpoint> {
  return listen(
    streamableSessions(StreamableHTTPServerTransport, (transport) =>
      createSdkV1Server().connect(transport),
    ),
  );
}

/** SDK 1.32.2 `SSEServerTransport`: the 2024-11-05 HTTP+SSE transport (`GET /mcp`, `POST /messages`). */
export async function sdkV1Sse(): Promise<Endpoint> {
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  return listen(
    sseSessions(SSEServerTransport, (transport) => createSdkV1Server().connect(transport), '/mcp'),
  );
}

async function listen({ handler, shutdown }: SessionRouter): Promise<Endpoint> {
  const { url, close } = await listenLoopback(handler, shutdown);
  return { target: { kind: 'http', url: url.href }, close };
}
