/**
 * The modern (2026-07-28) answer shapes of the server core over node:http: 202 for
 * notifications, JSON with the documented statuses, SSE when something precedes the response,
 * keep-alive comments, and the exchange signal firing on client disconnect.
 */
import {
  ErrorCode,
  type JsonRpcNotification,
  type JsonRpcRequest,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpExchange, type ModernHandler } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import {
  deferred,
  errorBody,
  MODERN_META,
  modernHeaders,
  modernRequest,
  SseReader,
} from './http-server-support';

function request(method: string, id: string | number = 1): JsonRpcRequest {
  // `tools/call` needs a name (mirrored in Mcp-Name) to pass header validation.
  return modernRequest(method, method === 'tools/call' ? { name: 'slow', arguments: {} } : {}, id);
}

let endpoint: ServedEndpoint | undefined;

async function start(
  modern: ModernHandler,
  keepAliveIntervalMs?: number,
  onerror?: (e: Error) => void,
) {
  endpoint = await serve(createHttpHandler({ modern, keepAliveIntervalMs, onerror }));
  return endpoint;
}

function post(
  message: JsonRpcRequest | JsonRpcNotification,
  signal?: AbortSignal,
): Promise<Response> {
  if (endpoint === undefined) throw new Error('not started');
  return fetch(endpoint.url, {
    method: 'POST',
    headers: modernHeaders(message),
    body: JSON.stringify(message),
    signal,
  });
}

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('answers', () => {
  it('answers a notification with 202 and an empty body after handing it over', async () => {
    const received = deferred<unknown>();
    await start((message) => received.resolve(message));
    const cancelled: JsonRpcNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 4, _meta: MODERN_META },
    };
    const response = await post(cancelled);
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    expect(await received.promise).toEqual(cancelled);
  });

  it('answers with one JSON body when the response comes first', async () => {
    await start((message, exchange) =>
      exchange.respond({
        jsonrpc: '2.0',
        id: (message as JsonRpcRequest).id,
        result: { tools: [] },
      }),
    );
    const response = await post(request('tools/list', 'abc'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: { tools: [] } });
  });

  it.each([
    [ErrorCode.MethodNotFound, 404],
    [ErrorCode.UnsupportedProtocolVersion, 400],
    [ErrorCode.MissingRequiredClientCapability, 400],
    [ErrorCode.HeaderMismatch, 400],
    [ErrorCode.InvalidParams, 200],
  ])('maps error %i in a JSON answer to HTTP %i', async (code, status) => {
    await start((message, exchange) =>
      exchange.respond({
        jsonrpc: '2.0',
        id: (message as JsonRpcRequest).id,
        error: { code, message: 'x' },
      }),
    );
    const response = await post(request('tools/list'));
    expect(response.status).toBe(status);
    expect((await errorBody(response)).error.code).toBe(code);
  });

  it('uses an explicit status when the handler gives one', async () => {
    await start((message, exchange) =>
      exchange.respond(
        {
          jsonrpc: '2.0',
          id: (message as JsonRpcRequest).id,
          error: { code: ErrorCode.InvalidParams, message: 'bad' },
        },
        { status: 400 },
      ),
    );
    expect((await post(request('tools/call'))).status).toBe(400);
  });

  it('streams SSE when a notification precedes the response, then ends the stream', async () => {
    await start(async (message, exchange) => {
      const id = (message as JsonRpcRequest).id;
      await exchange.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      });
      await exchange.notify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: '多言語 🎉' },
      });
      await exchange.respond({ jsonrpc: '2.0', id, result: { done: true } });
    });
    const response = await post(request('tools/call', 7));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const messages = await new SseReader(response.body).rest();
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: '多言語 🎉' },
      },
      { jsonrpc: '2.0', id: 7, result: { done: true } },
    ]);
  });

  it('keeps an opened stream alive with comments until the response ends it', async () => {
    const exchangeReady = deferred<{ id: number | string; exchange: HttpExchange }>();
    await start(async (message, exchange) => {
      await exchange.openStream();
      exchangeReady.resolve({ id: (message as JsonRpcRequest).id, exchange });
    }, 10);
    const response = await post(request('subscriptions/listen'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { id, exchange } = await exchangeReady.promise;
    const reader = new SseReader(response.body);
    // Two keep-alives arrive while nothing else is sent; then `respond` must end the stream.
    await reader.untilComments(2);
    await exchange.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await exchange.respond({ jsonrpc: '2.0', id, result: {} });
    expect(await reader.rest()).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id, result: {} },
    ]);
    expect(reader.comments).toBeGreaterThanOrEqual(2);
  });
});

describe('failures and disconnects', () => {
  it('answers a handler that throws with 500 and -32603, and reports the error', async () => {
    const errors: Error[] = [];
    await start(
      () => {
        throw new Error('boom');
      },
      undefined,
      (error) => errors.push(error),
    );
    const response = await post(request('tools/list', 3));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: ErrorCode.InternalError, message: 'Internal error' },
    });
    expect(errors.map((e) => e.message)).toEqual(['boom']);
  });

  it('ends a started stream with an error response when the handler rejects', async () => {
    await start(async (_message, exchange) => {
      await exchange.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      });
      throw new Error('late failure');
    });
    const response = await post(request('tools/call', 5));
    const messages = await new SseReader(response.body).rest();
    expect(messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: ErrorCode.InternalError, message: 'Internal error' },
    });
  });

  it.each([
    ['before anything was sent', false],
    ['while streaming', true],
  ])('fires exchange.signal when the client disconnects %s', async (_, streaming) => {
    const received = deferred<HttpExchange>();
    await start(async (_message, exchange) => {
      if (streaming) await exchange.openStream();
      received.resolve(exchange);
    });
    const client = new AbortController();
    const responded = post(request('tools/call'), client.signal);
    // Handled at once: aborting rejects it before the test awaits it.
    const settled = responded.catch(() => undefined);
    const exchange = await received.promise;
    if (streaming) expect((await responded).headers.get('content-type')).toBe('text/event-stream');
    expect(exchange.signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => exchange.signal.addEventListener('abort', resolve));
    client.abort();
    await aborted;
    await settled;
    // Nothing can be sent any more: the exchange says so instead of dropping the message.
    const late = exchange.respond({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(late).rejects.toBeInstanceOf(LocalError);
    await expect(late).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
  });

  it('rejects a second respond on the same exchange', async () => {
    // Wrapped in an object: resolving with a bare promise would adopt its rejection.
    const second = deferred<{ attempt: Promise<void> }>();
    await start(async (message, exchange) => {
      const id = (message as JsonRpcRequest).id;
      await exchange.respond({ jsonrpc: '2.0', id, result: {} });
      second.resolve({ attempt: exchange.respond({ jsonrpc: '2.0', id, result: {} }) });
    });
    expect((await post(request('tools/list'))).status).toBe(200);
    const { attempt } = await second.promise;
    await expect(attempt).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
  });
});
