import { type JsonRpcRequest, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/http-client/streamable-http';
import { undiciFetch } from '../src/node/undici-fetch';
import {
  type Observed,
  observe,
  openSse,
  sendJson,
  sendText,
  startTestServer,
  type TestServer,
  useTestServer,
} from './support/http-test-server';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number | string, method = 'tools/list') =>
  ({ jsonrpc: '2.0', id, method, params: { _meta: meta } }) as JsonRpcRequest;
const answer = (id: number | string) => ({ jsonrpc: '2.0', id, result: { ok: true } });
const HTML = '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>';

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

/** Sends a request and returns the typed error it was rejected with. */
async function failure(id: number | string = 1): Promise<LocalError> {
  const error = await client.send(request(id)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return error as LocalError;
}

useTestServer({
  onServer: (s) => {
    server = s;
  },
  closeClient: () => client?.close(),
});

describe('StreamableHttpClientTransport faults', () => {
  it('an HTML error page with 500 is HTTP_ERROR with the HTTP facts', async () => {
    server.handle((_req, res) => sendText(res, 500, 'text/html; charset=utf-8', HTML));
    await connect();
    const error = await failure(41);
    expect(error.code).toBe(LocalErrorCode.HttpError);
    expect(error.details).toEqual({
      status: 500,
      contentType: 'text/html; charset=utf-8',
      bodySnippet: HTML,
      method: 'tools/list',
      id: 41,
    });
  });

  it('an HTML page with 200 is HTTP_ERROR, not a message', async () => {
    server.handle((_req, res) => sendText(res, 200, 'text/html', HTML));
    await connect();
    const error = await failure();
    expect(error).toMatchObject({ code: LocalErrorCode.HttpError, details: { status: 200 } });
    expect(seen.messages).toEqual([]);
  });

  it('a 500 with an empty body is HTTP_ERROR', async () => {
    server.handle((_req, res) => {
      res.writeHead(500).end();
    });
    await connect();
    const error = await failure();
    expect(error).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 500, bodySnippet: '', contentType: undefined },
    });
  });

  it('a long error page is cut to a snippet', async () => {
    server.handle((_req, res) => sendText(res, 503, 'text/html', `<p>${'x'.repeat(100_000)}</p>`));
    await connect();
    const error = await failure();
    const snippet = error.details?.bodySnippet as string;
    expect(snippet.startsWith('<p>xxx')).toBe(true);
    expect(snippet.length).toBeLessThan(600);
  });

  it('accepts application/json with parameters, rejects JSON sent as text/plain', async () => {
    server.handle((req, res) => {
      const { id } = req.json as JsonRpcRequest;
      const type = id === 1 ? 'Application/JSON; charset=UTF-8' : 'text/plain';
      sendText(res, 200, type, JSON.stringify(answer(id)));
    });
    await connect();
    await client.send(request(1));
    expect(seen.messages.map((m) => m.message)).toEqual([answer(1)]);
    const error = await failure(2);
    expect(error).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 200, contentType: 'text/plain' },
    });
    expect(error.message).toContain('text/plain');
  });

  it('a 2xx JSON body that is not JSON-RPC is HTTP_ERROR', async () => {
    for (const body of ['{"hello":"world"}', '[{"jsonrpc":"2.0","id":1,"result":{}}]', '{oops']) {
      server.handle((_req, res) => sendText(res, 200, 'application/json', body));
      await connect();
      const error = await failure();
      expect(error.code).toBe(LocalErrorCode.HttpError);
      expect(error.details?.bodySnippet).toBe(body);
      await client.close();
    }
  });

  it('a 4xx JSON body that is not a JSON-RPC error is HTTP_ERROR', async () => {
    server.handle((req, res) => sendJson(res, 400, answer((req.json as JsonRpcRequest).id)));
    await connect();
    expect(await failure()).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 400 },
    });
  });

  it('a JSON body with invalid UTF-8 is HTTP_ERROR', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        Buffer.concat([
          Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"s":"'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}}'),
        ]),
      );
    });
    await connect();
    const error = await failure();
    expect(error.code).toBe(LocalErrorCode.HttpError);
    expect(error.message).toContain('UTF-8');
  });

  it('a body over maxResponseBytes is MESSAGE_TOO_LARGE, declared or chunked', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(10_000) } });
    for (const declared of [true, false]) {
      server.handle((_req, res) => {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          ...(declared ? { 'Content-Length': String(Buffer.byteLength(big)) } : {}),
        });
        if (declared) res.end(big);
        else {
          res.write(big.slice(0, 5000));
          res.end(big.slice(5000));
        }
      });
      await connect({ maxResponseBytes: 4096 });
      const error = await failure();
      expect(error).toMatchObject({
        code: LocalErrorCode.MessageTooLarge,
        details: { limit: 4096, status: 200, id: 1 },
      });
      await client.close();
    }
  });

  it('an SSE event over maxResponseBytes is reported and skipped; the stream goes on', async () => {
    server.handle(async (req, res) => {
      const sse = openSse(res);
      await sse.event({
        data: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { pad: 'y'.repeat(5000) },
        },
      });
      await sse.event({ data: answer((req.json as JsonRpcRequest).id) });
      sse.end();
    });
    await connect({ maxResponseBytes: 1024 });
    await client.send(request('big'));
    await seen.message(0);
    expect(seen.messages.map((m) => m.message)).toEqual([answer('big')]);
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toMatchObject({
      code: LocalErrorCode.MessageTooLarge,
      details: { requestId: 'big', limit: 1024 },
    });
  });

  it('an SSE event that is not JSON-RPC is reported; the stream goes on', async () => {
    server.handle(async (req, res) => {
      const sse = openSse(res);
      await sse.event({ data: 'not json at all' });
      await sse.event({ data: '[1,2]' });
      await sse.event({ event: 'custom', data: 'ignored: not a message event' });
      await sse.event({ id: 'prime', data: '' });
      await sse.event({ data: answer((req.json as JsonRpcRequest).id) });
      sse.end();
    });
    await connect();
    await client.send(request(3));
    await seen.message(0);
    expect(seen.messages.map((m) => m.message)).toEqual([answer(3)]);
    expect(seen.errors.map((e) => (e as LocalError).code)).toEqual([
      LocalErrorCode.InvalidMessage,
      LocalErrorCode.InvalidMessage,
    ]);
    expect((seen.errors[0] as LocalError).details).toMatchObject({
      requestId: 3,
      text: 'not json at all',
    });
  });

  it('a stream that ends cleanly without the response is CONNECTION_CLOSED', async () => {
    server.handle((_req, res) => openSse(res).end());
    await connect();
    await client.send(request(4));
    const error = await seen.error(0);
    expect(error).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { requestId: 4, truncated: false },
    });
  });

  it('a stream the server destroys mid-event is CONNECTION_CLOSED', async () => {
    server.handle(async (_req, res) => {
      const sse = openSse(res);
      await sse.raw('data: {"jsonrpc":');
      res.destroy();
    });
    await connect();
    await client.send(request(5));
    const error = await seen.error(0);
    expect(error).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { requestId: 5 },
    });
  });

  it('401 and 403 are UNAUTHORIZED with WWW-Authenticate', async () => {
    const challenge =
      'Bearer resource_metadata="https://example.test/.well-known/oauth-protected-resource"';
    for (const status of [401, 403]) {
      server.handle((_req, res) =>
        sendText(res, status, undefined, '', { 'WWW-Authenticate': challenge }),
      );
      await connect();
      const error = await failure();
      expect(error).toMatchObject({
        code: LocalErrorCode.Unauthorized,
        details: { status, wwwAuthenticate: challenge },
      });
      await client.close();
    }
  });

  it('202 without a body for a request is HTTP_ERROR: a request needs an answer', async () => {
    server.handle((_req, res) => {
      res.writeHead(202).end();
    });
    await connect();
    expect(await failure()).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 202 },
    });
  });

  it('a refused connection is HTTP_ERROR without a status', async () => {
    const closed = await startTestServer();
    const url = closed.url;
    await closed.close();
    client = new StreamableHttpClientTransport({ url, era: 'modern', ...undiciFetch() });
    seen = observe(client);
    await client.start();
    const error = await failure();
    expect(error.code).toBe(LocalErrorCode.HttpError);
    expect(error.details?.status).toBeUndefined();
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a throwing headers callback rejects the send', async () => {
    await connect({
      headers: () => {
        throw new Error('token store offline');
      },
    });
    const error = await failure();
    expect(error).toMatchObject({ code: LocalErrorCode.HttpError });
    expect((error.cause as Error).message).toBe('token store offline');
    expect(server.requests).toEqual([]);
  });
});
