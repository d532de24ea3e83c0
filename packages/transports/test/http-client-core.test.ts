/**
 * The Streamable HTTP client against the server core of this package, end to end on loopback:
 * modern JSON and SSE answers, header validation both ways, cancellation by disconnect, and a
 * legacy session with its GET stream and DELETE.
 */
import type {
  JsonRpcMessage,
  JsonRpcRequest,
  McpHeaderParam,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/http-client/streamable-http';
import {
  createHttpHandler,
  HttpServerTransport,
  type LegacySession,
} from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import { undiciFetch } from '../src/node/undici-fetch';
import { type Observed, observe } from './support/http-test-server';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number | string, method: string, params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }) as JsonRpcRequest;
const REGION: McpHeaderParam[] = [{ header: 'Region', path: ['region'], type: 'string' }];
const headerParams = (tool: string) => (tool === 'lookup' ? REGION : undefined);

let endpoint: ServedEndpoint | undefined;
let client: StreamableHttpClientTransport | undefined;
let seen: Observed;

afterEach(async () => {
  await client?.close();
  await endpoint?.close();
  client = undefined;
  endpoint = undefined;
});

/** A modern endpoint: echoes, streams progress for tools/call, never answers `hold`. */
async function modernEndpoint() {
  const server = new HttpServerTransport({ headerParams });
  let markHeld: (signal: AbortSignal | undefined) => void = () => {};
  /** Resolves with the exchange signal of the `hold` request once it arrived. */
  const held = new Promise<AbortSignal | undefined>((resolve) => {
    markHeld = resolve;
  });
  server.onmessage = (message, context) => {
    if (!('id' in message) || !('method' in message)) return;
    const { id, method } = message;
    if (method === 'hold') {
      markHeld(context?.signal);
      return;
    }
    void (async () => {
      if (method === 'tools/call') {
        const progress = {
          jsonrpc: '2.0' as const,
          method: 'notifications/progress',
          params: { progress: 1 },
        };
        await server.send(progress, { relatedRequestId: id });
      }
      await server.send({
        jsonrpc: '2.0',
        id,
        result: { echo: message.params?.arguments ?? null },
      });
    })();
  };
  await server.start();
  endpoint = await serve(server.handler);
  return { server, held };
}

async function connect(
  options: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[0]>,
) {
  if (endpoint === undefined) throw new Error('no endpoint');
  client = new StreamableHttpClientTransport({
    url: endpoint.url,
    era: 'modern',
    ...undiciFetch(),
    ...options,
  });
  seen = observe(client);
  await client.start();
  return client;
}

describe('StreamableHttpClientTransport ↔ the server core', () => {
  it('modern: a JSON answer, then an SSE answer with progress first', async () => {
    await modernEndpoint();
    const transport = await connect({ headerParams });
    await transport.send(request(1, 'tools/list'));
    expect(seen.messages[0]).toEqual({
      message: { jsonrpc: '2.0', id: 1, result: { echo: null } },
      context: { httpStatus: 200 },
    });
    await transport.send(
      request(2, 'tools/call', { name: 'lookup', arguments: { region: 'Île-de-France' } }),
    );
    await seen.message(2);
    expect(seen.messages.slice(1).map((m) => m.message)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 2, result: { echo: { region: 'Île-de-France' } } },
    ]);
    expect(seen.errors).toEqual([]);
  });

  it('modern: a missing Mcp-Param header comes back as 400 -32020, delivered with its status', async () => {
    await modernEndpoint();
    const transport = await connect({});
    await transport.send(
      request(3, 'tools/call', { name: 'lookup', arguments: { region: 'north' } }),
    );
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]?.context).toEqual({ httpStatus: 400 });
    expect(seen.messages[0]?.message).toMatchObject({ id: 3, error: { code: -32020 } });
  });

  it('modern: aborting the request is seen by the server as the client going away', async () => {
    const { held } = await modernEndpoint();
    const transport = await connect({});
    const controller = new AbortController();
    const sent = transport.send(request('h', 'hold'), { signal: controller.signal });
    const outcome = expect(sent).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    const signal = await held;
    expect(signal?.aborted).toBe(false);
    controller.abort();
    await outcome;
    await new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      else signal?.addEventListener('abort', () => resolve());
    });
    expect(signal?.aborted).toBe(true);
  });

  it('legacy: a session with initialize, the GET stream, and DELETE on close', async () => {
    const sessions: LegacySession[] = [];
    const closed: string[] = [];
    endpoint = await serve(
      createHttpHandler({
        legacy: {
          onSession: async (session) => {
            sessions.push(session);
            session.onclose = () => closed.push(String(session.sessionId));
            session.onmessage = (message: JsonRpcMessage) => {
              if (!('id' in message) || !('method' in message)) return;
              const result =
                message.method === 'initialize'
                  ? {
                      protocolVersion: '2025-11-25',
                      capabilities: {},
                      serverInfo: { name: 's', version: '1' },
                    }
                  : {};
              void session.send(
                { jsonrpc: '2.0', id: message.id, result },
                { relatedRequestId: message.id },
              );
            };
            await session.start();
          },
        },
      }),
    );
    client = new StreamableHttpClientTransport({
      url: endpoint.url,
      era: 'legacy',
      ...undiciFetch(),
    });
    seen = observe(client);
    await client.start();
    await client.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    expect(client.sessionId).toBe(sessions[0]?.sessionId);
    client.setProtocolVersion('2025-11-25');
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.openEventStream();
    // Unrelated server messages travel on the GET stream.
    await sessions[0]?.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await seen.message(1);
    expect(seen.messages[1]?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await seen.message(2);
    expect(seen.messages[2]?.message).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await client.close();
    expect(closed).toEqual([sessions[0]?.sessionId]);
    expect(seen.errors).toEqual([]);
  });
});
