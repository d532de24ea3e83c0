import {
  type JsonRpcMessage,
  type JsonRpcRequest,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/http-client/streamable-http';
import { undiciFetch } from '../src/node/undici-fetch';
import {
  type Observed,
  observe,
  openSse,
  sendJson,
  type TestServer,
  useTestServer,
} from './support/http-test-server';

const VERSION = '2026-07-28';
const meta = (version = VERSION) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
});
const request = (id: string | number, method: string, params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } }) as JsonRpcRequest;
const result = (id: string | number, value: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  result: value,
});

let server: TestServer;
let client: StreamableHttpClientTransport;
let seen: Observed;

async function connect(
  options: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[0]> = {},
) {
  client = new StreamableHttpClientTransport({
    url: server.url,
    era: 'modern',
    ...undiciFetch(),
    ...options,
  });
  seen = observe(client);
  await client.start();
}

useTestServer({
  onServer: (s) => {
    server = s;
  },
  closeClient: () => client?.close(),
});

describe('StreamableHttpClientTransport (modern)', () => {
  it('POSTs each message with the request metadata and caller headers', async () => {
    server.handle((req, res) => sendJson(res, 200, result((req.json as JsonRpcRequest).id)));
    await connect({
      headers: async () => ({ Authorization: 'Bearer t0ken', 'mcp-method': 'spoofed' }),
      headerParams: (tool) =>
        tool === 'lookup' ? [{ header: 'Region', path: ['region'], type: 'string' }] : undefined,
    });
    const call = request(1, 'tools/call', { name: 'lookup', arguments: { region: 'Zürich' } });
    await client.send(call);
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.json).toEqual(call);
    expect(req?.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'lookup',
      'mcp-param-region': '=?base64?WsO8cmljaA==?=',
      authorization: 'Bearer t0ken',
    });
    expect(req?.headers['mcp-session-id']).toBeUndefined();
    expect(seen.messages).toEqual([{ message: result(1), context: { httpStatus: 200 } }]);
  });

  it('takes MCP-Protocol-Version from the message, else from the option', async () => {
    server.handle((_req, res) => {
      res.writeHead(202).end();
    });
    await connect({ protocolVersion: '2099-01-01' });
    await client.send({
      jsonrpc: '2.0',
      method: 'notifications/x',
      params: { _meta: meta('2030-01-01') },
    });
    await client.send({ jsonrpc: '2.0', method: 'notifications/y' });
    expect(server.requests.map((r) => r.headers['mcp-protocol-version'])).toEqual([
      '2030-01-01',
      '2099-01-01',
    ]);
    expect(server.requests[1]?.headers['mcp-method']).toBe('notifications/y');
    expect(seen.messages).toEqual([]);
  });

  it('delivers an SSE answer in order: notifications, then the response', async () => {
    server.handle(async (req, res) => {
      const id = (req.json as JsonRpcRequest).id;
      const sse = openSse(res, { 'X-Accel-Buffering': 'no' });
      await sse.raw(': keep-alive\n\n');
      await sse.event({
        data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      });
      // A message split over two data lines and written in tiny chunks.
      await sse.chunked(
        'data: {"jsonrpc":"2.0",\r\ndata: "method":"notifications/message"}\r\n\r\n',
        7,
      );
      await sse.event({ data: result(id, { done: true }) });
      sse.end();
    });
    await connect();
    await client.send(request('s-1', 'tools/list'));
    await seen.message(2);
    expect(seen.messages.map((m) => m.message)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', method: 'notifications/message' },
      result('s-1', { done: true }),
    ]);
    expect(seen.messages.every((m) => m.context?.httpStatus === 200)).toBe(true);
    expect(seen.errors).toEqual([]);
  });

  it('delivers JSON-RPC errors that come with 400 and 404, with their status', async () => {
    server.handle((req, res) => {
      const { id, method } = req.json as JsonRpcRequest;
      if (method === 'server/discover') {
        sendJson(res, 400, {
          jsonrpc: '2.0',
          id,
          error: {
            code: -32022,
            message: 'Unsupported',
            data: { supported: ['2099-01-01'], requested: VERSION },
          },
        });
      } else sendJson(res, 404, { jsonrpc: '2.0', id, error: { code: -32601, message: 'nope' } });
    });
    await connect();
    await client.send(request(1, 'server/discover'));
    await client.send(request(2, 'ping'));
    expect(
      seen.messages.map((m) => [
        m.context?.httpStatus,
        (m.message as { error: { code: number } }).error.code,
      ]),
    ).toEqual([
      [400, -32022],
      [404, -32601],
    ]);
  });

  it('never POSTs a response, a batch or an unserialisable value', async () => {
    await connect();
    const attempts: unknown[] = [
      result(1),
      [request(1, 'ping')],
      request(2, 'tools/call', { name: 'x', arguments: { n: 10n } }),
    ];
    for (const message of attempts) {
      const sent = client.send(message as JsonRpcMessage);
      await expect(sent).rejects.toMatchObject({ code: LocalErrorCode.InvalidMessage });
    }
    expect(server.requests).toEqual([]);
  });

  it('aborting a request closes its stream: the server sees the disconnect', async () => {
    server.handle(async (_req, res) => {
      const sse = openSse(res);
      await sse.event({
        data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      });
      // Never answers: only the client's abort ends this exchange.
    });
    await connect();
    const controller = new AbortController();
    await client.send(request(7, 'tools/call', { name: 'slow' }), { signal: controller.signal });
    await seen.message(0);
    const exchange = await server.request(0);
    controller.abort();
    await exchange.closed;
    expect(exchange.abandoned()).toBe(true);
    // The caller aborted: nothing to report.
    expect(seen.errors).toEqual([]);
  });

  it('rejects a send whose POST is aborted before the answer starts', async () => {
    server.handle(() => {});
    await connect();
    const controller = new AbortController();
    const sent = client.send(request(8, 'tools/list'), { signal: controller.signal });
    const exchange = await server.request(0);
    controller.abort(new Error('user gave up'));
    await expect(sent).rejects.toMatchObject({
      code: LocalErrorCode.RequestAborted,
      details: { method: 'tools/list', id: 8 },
    });
    await exchange.closed;
    expect(exchange.abandoned()).toBe(true);
  });

  it('times out a request whose answer never starts, and aborts it', async () => {
    server.handle(() => {});
    await connect({ requestTimeoutMs: 150 });
    const sent = client.send(request(9, 'tools/list'));
    await expect(sent).rejects.toMatchObject({
      code: LocalErrorCode.RequestTimeout,
      details: { method: 'tools/list', id: 9, timeoutMs: 150 },
    });
    const exchange = await server.request(0);
    await exchange.closed;
    expect(exchange.abandoned()).toBe(true);
  });

  it('times out a stream that goes silent before the response, on onerror', async () => {
    server.handle(async (_req, res) => {
      const sse = openSse(res);
      await sse.event({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } });
    });
    await connect({ requestTimeoutMs: 150 });
    await client.send(request('quiet', 'tools/call', { name: 'x' }));
    const error = await seen.error(0);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: LocalErrorCode.RequestTimeout, details: { id: 'quiet' } });
    const exchange = await server.request(0);
    await exchange.closed;
    expect(exchange.abandoned()).toBe(true);
  });

  it('lets keep-alive comments hold a quiet stream open past the timeout', async () => {
    server.handle(async (req, res) => {
      const sse = openSse(res);
      for (let i = 0; i < 12; i++) {
        await sse.raw(': ping\n\n');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await sse.event({ data: result((req.json as JsonRpcRequest).id) });
      sse.end();
    });
    // 12 × 100 ms of comments outlast a 600 ms timeout only if each comment restarts it.
    await connect({ requestTimeoutMs: 600 });
    await client.send(request(10, 'subscriptions/listen'));
    await seen.message(0);
    expect(seen.messages[0]?.message).toEqual(result(10));
    expect(seen.errors).toEqual([]);
  });

  it('reports a stream that ends before the response, naming the request', async () => {
    server.handle(async (_req, res) => {
      const sse = openSse(res);
      await sse.event({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } });
      await sse.raw('data: {"jsonrpc":"2.0","id":"cut","res');
      sse.end();
    });
    await connect();
    await client.send(request('cut', 'tools/call', { name: 'x' }));
    const error = await seen.error(0);
    expect(error).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { requestId: 'cut', truncated: true },
    });
    expect(seen.messages).toHaveLength(1);
  });

  it('undiciFetch: uses a dispatcher passed in and leaves it open on close', async () => {
    server.handle((req, res) => sendJson(res, 200, result((req.json as JsonRpcRequest).id)));
    const agent = new Agent();
    await connect(undiciFetch(agent));
    await client.send(request(1, 'tools/list'));
    await client.close();
    expect(agent.closed).toBe(false);
    expect(server.openConnections()).toBe(1);
    await agent.close();
  });

  it('enforces the lifecycle: not before start, once, not after close', async () => {
    client = new StreamableHttpClientTransport({
      url: server.url,
      era: 'modern',
      ...undiciFetch(),
    });
    seen = observe(client);
    await expect(client.send(request(1, 'ping'))).rejects.toMatchObject({
      code: LocalErrorCode.NotConnected,
    });
    await client.start();
    await expect(client.start()).rejects.toThrow();
    await client.close();
    await client.close();
    expect(seen.closes).toBe(1);
    await expect(client.send(request(2, 'ping'))).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
    expect(server.requests).toEqual([]);
  });

  it('close() aborts open streams and pending POSTs, then delivers nothing', async () => {
    let writeLate: (() => Promise<void>) | undefined;
    server.handle(async (req, res) => {
      if ((req.json as JsonRpcRequest).method === 'hang') return;
      const sse = openSse(res);
      writeLate = () => sse.event({ data: result(1) });
      await sse.event({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } });
    });
    await connect();
    await client.send(request(1, 'tools/call', { name: 'x' }));
    await seen.message(0);
    const pending = expect(client.send(request(2, 'hang'))).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
    const [streamed, hanging] = await Promise.all([server.request(0), server.request(1)]);
    await client.close();
    await pending;
    await writeLate?.();
    await Promise.all([streamed.closed, hanging.closed]);
    expect(seen.messages).toHaveLength(1);
    expect(seen.errors).toEqual([]);
    expect(seen.closes).toBe(1);
  });
});
