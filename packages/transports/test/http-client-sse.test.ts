import { type JsonRpcRequest, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { beforeEach, describe, expect, it } from 'vitest';
import { SseClientTransport } from '../src/http-client/sse-client';
import { undiciFetch } from '../src/node/undici-fetch';
import {
  type Observed,
  observe,
  openSse,
  type SseWriter,
  sendText,
  type TestServer,
  useTestServer,
} from './support/http-test-server';

const request = (id: number, method = 'tools/list') =>
  ({ jsonrpc: '2.0', id, method }) as JsonRpcRequest;
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: {} });

let server: TestServer;
let client: SseClientTransport;
let seen: Observed;
/** The open SSE stream of the current test's server. */
let stream: SseWriter | undefined;

/** A 2024-11-05 server: GET /sse opens the stream; POST /messages answers on it. */
function http_sse(endpoint = '/messages?sessionId=abc', postStatus = 202) {
  server.handle(async (req, res) => {
    if (req.method === 'GET') {
      stream = openSse(res);
      await stream.event({ event: 'endpoint', data: endpoint });
      return;
    }
    res.writeHead(postStatus).end(postStatus === 202 ? 'Accepted' : 'no');
    const message = req.json as JsonRpcRequest;
    if (postStatus === 202 && 'id' in message)
      await stream?.event({ data: answer(message.id as number) });
  });
}

async function start(options: Partial<ConstructorParameters<typeof SseClientTransport>[0]> = {}) {
  client = new SseClientTransport({ url: `${server.origin}/sse`, ...undiciFetch(), ...options });
  seen = observe(client);
  await client.start();
}

/** Starts and returns the typed error `start()` rejected with. */
async function startFailure(
  options: Partial<ConstructorParameters<typeof SseClientTransport>[0]> = {},
) {
  const error = await start(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return error as LocalError;
}

beforeEach(() => {
  stream = undefined;
});

useTestServer({
  onServer: (s) => {
    server = s;
  },
  closeClient: () => client?.close(),
});

describe('SseClientTransport (2024-11-05 HTTP+SSE)', () => {
  it('waits for the endpoint, POSTs there, and delivers message events', async () => {
    http_sse();
    await start({ headers: { Authorization: 'Bearer abc' } });
    expect(client.endpoint?.href).toBe(`${server.origin}/messages?sessionId=abc`);
    await client.send(request(1));
    await seen.message(0);
    expect(seen.messages).toEqual([{ message: answer(1), context: { httpStatus: 200 } }]);
    const [get, post] = server.requests;
    expect(get?.headers).toMatchObject({
      accept: 'text/event-stream',
      authorization: 'Bearer abc',
    });
    expect(post).toMatchObject({
      method: 'POST',
      url: '/messages?sessionId=abc',
      json: request(1),
    });
    expect(post?.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer abc',
    });
  });

  it('resolves a relative endpoint against the SSE URL', async () => {
    http_sse('messages/7');
    await start();
    expect(client.endpoint?.href).toBe(`${server.origin}/messages/7`);
  });

  it('rejects a cross-origin endpoint and closes', async () => {
    http_sse('http://attacker.test/steal');
    const error = await startFailure();
    expect(error).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { endpoint: 'http://attacker.test/steal' },
    });
    expect(seen.closes).toBe(1);
  });

  it('times out when no endpoint event comes', async () => {
    server.handle(async (_req, res) => {
      await openSse(res).raw(': no endpoint here\n\n');
    });
    const error = await startFailure({ endpointTimeoutMs: 150 });
    expect(error.code).toBe(LocalErrorCode.RequestTimeout);
    const get = await server.request(0);
    await get.closed;
    expect(get.abandoned()).toBe(true);
  });

  it('fails to start when the stream ends before the endpoint event', async () => {
    server.handle((_req, res) => openSse(res).end());
    expect((await startFailure()).code).toBe(LocalErrorCode.ConnectionClosed);
  });

  it('fails to start on an HTML page or a 401', async () => {
    server.handle((_req, res) => sendText(res, 200, 'text/html', '<html>login</html>'));
    expect(await startFailure()).toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 200, bodySnippet: '<html>login</html>' },
    });
    server.handle((_req, res) =>
      sendText(res, 401, undefined, '', { 'WWW-Authenticate': 'Bearer' }),
    );
    expect(await startFailure()).toMatchObject({
      code: LocalErrorCode.Unauthorized,
      details: { status: 401, wwwAuthenticate: 'Bearer' },
    });
  });

  it('rejects a POST answered with an error status', async () => {
    http_sse('/messages', 500);
    await start();
    await expect(client.send(request(2))).rejects.toMatchObject({
      code: LocalErrorCode.HttpError,
      details: { status: 500, id: 2, method: 'tools/list' },
    });
  });

  it('closes when the server ends the stream', async () => {
    http_sse();
    await start();
    stream?.end();
    await seen.closed();
    expect(seen.closes).toBe(1);
    expect(seen.errors).toEqual([]);
    await expect(client.send(request(3))).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
  });

  it('reports a repeated endpoint event and keeps the first', async () => {
    http_sse();
    await start();
    await stream?.event({ event: 'endpoint', data: '/elsewhere' });
    expect(await seen.error(0)).toMatchObject({ code: LocalErrorCode.InvalidMessage });
    expect(client.endpoint?.pathname).toBe('/messages');
  });

  it('close() aborts the stream', async () => {
    http_sse();
    await start();
    const get = await server.request(0);
    await client.close();
    await get.closed;
    expect(get.abandoned()).toBe(true);
    expect(seen.closes).toBe(1);
  });
});
