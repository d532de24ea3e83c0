/**
 * The HTTP client transports on the runtime's own `fetch` (their default) and on an injected
 * one. The runtime pools its connections, so instead of counting sockets these tests check that
 * every exchange the client opened has ended on the server once `close()` resolved: an aborted
 * stream must not linger on a pooled connection.
 */
import type { JsonRpcRequest } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpFetch } from '../src/http-client/options';
import { SseClientTransport } from '../src/http-client/sse-client';
import { StreamableHttpClientTransport } from '../src/http-client/streamable-http';
import {
  observe,
  openSse,
  type SseWriter,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/http-test-server';

const request = (id: number, method: string) =>
  ({ jsonrpc: '2.0', id, method, params: {} }) as JsonRpcRequest;
const answer = (id: number | string) => ({ jsonrpc: '2.0', id, result: {} });

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every request the server saw has its response over (finished, or the client went away). */
async function everyExchangeEnded(on: TestServer): Promise<void> {
  await Promise.all(on.requests.map((recorded) => recorded.closed));
}

describe('HTTP client transports on the global fetch', () => {
  it('modern: a JSON answer, then close() ends a request whose SSE stream is still open', async () => {
    server = await startTestServer(async (req, res) => {
      const message = req.json as JsonRpcRequest;
      if (message.method === 'slow') {
        const sse = openSse(res);
        await sse.event({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } });
        return;
      }
      sendJson(res, 200, answer(message.id));
    });
    const client = new StreamableHttpClientTransport({ url: server.url, era: 'modern' });
    const seen = observe(client);
    await client.start();
    await client.send(request(1, 'tools/list'));
    await client.send(request(2, 'slow'));
    await seen.message(1);
    await client.close();
    await everyExchangeEnded(server);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[1]?.abandoned()).toBe(true);
    expect(seen.messages.map((m) => m.message)).toEqual([
      answer(1),
      { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
    ]);
  });

  it('legacy: the session GET stream is aborted and the session deleted on close()', async () => {
    let stream: SseWriter | undefined;
    server = await startTestServer(async (req, res) => {
      if (req.method === 'GET') {
        stream = openSse(res);
        await stream.raw(': open\n\n');
        return;
      }
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      const message = req.json as Partial<JsonRpcRequest>;
      if (message.id === undefined) return void res.writeHead(202).end();
      sendJson(res, 200, answer(message.id), { 'Mcp-Session-Id': 'session-7' });
    });
    const client = new StreamableHttpClientTransport({ url: server.url, era: 'legacy' });
    await client.start();
    await client.send(request(0, 'initialize'));
    client.setProtocolVersion('2025-11-25');
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.openEventStream();
    const get = await server.request(2);
    expect(get.method).toBe('GET');
    await client.close();
    await everyExchangeEnded(server);
    expect(get.abandoned()).toBe(true);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'DELETE']);
  });

  it('2024-11-05 HTTP+SSE: the event stream is aborted on close()', async () => {
    let stream: SseWriter | undefined;
    server = await startTestServer(async (req, res) => {
      if (req.method === 'GET') {
        stream = openSse(res);
        await stream.event({ event: 'endpoint', data: '/messages?session=1' });
        return;
      }
      res.writeHead(202).end();
      await stream?.event({ data: answer((req.json as JsonRpcRequest).id) });
    });
    const client = new SseClientTransport({ url: `${server.origin}/sse` });
    const seen = observe(client);
    await client.start();
    await client.send(request(1, 'tools/list'));
    expect((await seen.message(0)).message).toEqual(answer(1));
    await client.close();
    await everyExchangeEnded(server);
    expect(server.requests[0]?.abandoned()).toBe(true);
  });

  it('sends through an injected fetch, with the merged headers and the signal', async () => {
    server = await startTestServer((req, res) =>
      sendJson(res, 200, answer((req.json as JsonRpcRequest).id)),
    );
    const calls: Array<{ url: string; method: string; headers: Record<string, string> }> = [];
    const recording: HttpFetch = (url, init) => {
      calls.push({ url: url.href, method: init.method, headers: init.headers });
      expect(init.signal).toBeInstanceOf(AbortSignal);
      return fetch(url, init);
    };
    const client = new StreamableHttpClientTransport({
      url: server.url,
      era: 'modern',
      fetch: recording,
      headers: { 'X-Api-Key': 'k', 'MCP-Method': 'forged' },
    });
    const seen = observe(client);
    await client.start();
    await client.send(request(1, 'tools/list'));
    await seen.message(0);
    await client.close();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: server.url, method: 'POST' });
    expect(calls[0]?.headers).toMatchObject({ 'x-api-key': 'k', 'mcp-method': 'tools/list' });
    expect(server.requests[0]?.headers['mcp-method']).toBe('tools/list');
  });

  it('close() resolves even when an aborted fetch never ends the body being read', async () => {
    // Deno's fetch, for one, may leave a body unended after its request was aborted.
    const encoder = new TextEncoder();
    const stubborn: HttpFetch = async (_url, init) => {
      const sse = init.method === 'GET';
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (sse) controller.enqueue(encoder.encode('event: endpoint\ndata: /messages\n\n'));
          else controller.close();
        },
      });
      const type = sse ? 'text/event-stream' : 'text/plain';
      return {
        status: sse ? 200 : 202,
        ok: true,
        headers: new Headers({ 'content-type': type }),
        body,
      };
    };
    const client = new SseClientTransport({ url: 'http://127.0.0.1:9/sse', fetch: stubborn });
    const seen = observe(client);
    await client.start();
    expect(client.endpoint?.href).toBe('http://127.0.0.1:9/messages');
    await client.send(request(1, 'tools/list'));
    await client.close();
    expect(seen.closes).toBe(1);
  });
});
