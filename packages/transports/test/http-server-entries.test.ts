/**
 * The core's two ways in on node:http: its own entry, called with the node request (what
 * `serve(createHttpHandler(…))` uses), and the web-standard one, reached through a plain
 * `(request) => handler(request)` wrapper. Both answer alike: limits, disconnects, headers.
 */
import { Readable } from 'node:stream';
import { ErrorCode, type JsonRpcRequest } from '@twofold/protocol/experimental';
import { request as undiciRequest } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  guardHandler,
  type HttpExchange,
  type HttpHandler,
  type ModernHandler,
  Reply,
} from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import { deferred, errorBody, modernHeaders, modernRequest } from './http-server-support';

const MAX_BODY = 16 * 1024;
const list = modernRequest('tools/list');
const call = modernRequest('tools/call', { name: 'slow', arguments: {} });

let endpoint: ServedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** Each entry, and whether it knows a JSON answer's length before sending it. */
const entries: [string, (handler: ReturnType<typeof createHttpHandler>) => HttpHandler, boolean][] =
  [
    ['the core entry', (handler) => handler, true],
    // A web `Response` is streamed as it is read: chunked, with no length.
    ['the web entry', (handler) => (request, context) => handler(request, context), false],
  ];

describe.each(entries)('through %s', (_, entry, sentWhole) => {
  async function start(modern: ModernHandler) {
    const handler = createHttpHandler({ modern, maxBodyBytes: MAX_BODY });
    endpoint = await serve(entry(handler));
    return endpoint.url;
  }
  const answerOk: ModernHandler = async (message, exchange) => {
    if ('id' in message) await exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} });
  };
  const post = (url: URL, message: JsonRpcRequest, signal?: AbortSignal) =>
    fetch(url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
      signal,
    });

  it(`sends a JSON answer ${sentWhole ? 'whole, with its length' : 'chunked'}, keeping the connection`, async () => {
    const url = await start(answerOk);
    const response = await undiciRequest(url, {
      method: 'POST',
      headers: modernHeaders(list),
      body: JSON.stringify(list),
    });
    const text = await response.body.text();
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const length = sentWhole ? String(Buffer.byteLength(text)) : undefined;
    expect(response.headers['content-length']).toBe(length);
    expect(response.headers['transfer-encoding']).toBe(sentWhole ? undefined : 'chunked');
    expect(response.headers.connection).not.toBe('close');
  });

  it('reads a body of many chunks whole, and refuses one past the limit with 413', async () => {
    const seen = deferred<unknown>();
    const url = await start(async (message, exchange) => {
      seen.resolve(message);
      await answerOk(message, exchange);
    });
    const padded = modernRequest('tools/list', { pad: 'x'.repeat(MAX_BODY / 2) });
    const bytes = new TextEncoder().encode(JSON.stringify(padded));
    // Sent in 1 KiB pieces, so the server reads several chunks.
    const pieces = Readable.from(
      Array.from({ length: Math.ceil(bytes.byteLength / 1024) }, (_, i) =>
        bytes.subarray(i * 1024, (i + 1) * 1024),
      ),
    );
    const accepted = await undiciRequest(url, {
      method: 'POST',
      headers: modernHeaders(padded),
      body: pieces,
    });
    expect(accepted.statusCode).toBe(200);
    await accepted.body.text();
    expect(await seen.promise).toEqual(padded);

    const tooBig = modernRequest('tools/list', { pad: 'x'.repeat(MAX_BODY) });
    const refused = await post(url, tooBig);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
    expect((await errorBody(refused)).error.code).toBe(ErrorCode.InvalidRequest);
  });

  it('aborts the signal of a handler when the client goes away', async () => {
    const started = deferred<HttpExchange>();
    const finished = deferred<boolean>();
    const url = await start(async (_message, exchange) => {
      const signal = exchange.signal;
      started.resolve(exchange);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      finished.resolve(exchange.aborted);
    });
    const client = new AbortController();
    const responded = post(url, call, client.signal).catch(() => 'aborted');
    const exchange = await started.promise;
    expect(exchange.aborted).toBe(false);
    client.abort();
    expect(await finished.promise).toBe(true);
    expect(await responded).toBe('aborted');
  });
});

describe('guardHandler', () => {
  const refuse = () => new Reply(403, { 'Content-Type': 'text/plain' }, 'no');
  const modern: ModernHandler = async (message, exchange) => {
    if ('id' in message) await exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} });
  };

  it('keeps the core entry of a handler that has one, and checks on both entries', async () => {
    const guarded = guardHandler(createHttpHandler({ modern }), (request) =>
      request.header('X-Key') === 'k' ? undefined : refuse(),
    );
    expect(typeof guarded.answer).toBe('function');
    const web = (key: string) =>
      guarded(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...modernHeaders(list), host: '127.0.0.1', 'x-key': key },
          body: JSON.stringify(list),
        }),
      );
    expect((await web('nope')).status).toBe(403);
    expect((await web('k')).status).toBe(200);
    endpoint = await serve(guarded);
    const served = (key: string) =>
      fetch(endpoint?.url ?? '', {
        method: 'POST',
        headers: { ...modernHeaders(list), 'x-key': key },
        body: JSON.stringify(list),
      });
    expect((await served('nope')).status).toBe(403);
    expect((await served('k')).status).toBe(200);
  });

  it('gives a web-only handler the whole body it was sent', async () => {
    const plain: HttpHandler = async (request) =>
      new Response(String((await request.text()).length));
    const guarded = guardHandler(plain, () => undefined);
    expect('answer' in guarded).toBe(false);
    endpoint = await serve(guarded);
    const body = 'y'.repeat(200 * 1024);
    const response = await fetch(endpoint.url, { method: 'POST', body });
    expect(await response.text()).toBe(String(body.length));
  });
});
