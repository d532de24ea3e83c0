/**
 * `undiciFetch` sends with undici's `request`, not its `fetch`, and keeps what the transports
 * count on from `fetch`: redirects followed, failures as `TypeError('fetch failed')` with the
 * network error as `cause`, a URL with credentials refused, an abort rejecting with its reason,
 * and a body whose abort or cancel leaves the pool usable. Against a real `node:http` server.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpFetchInit, HttpFetchResponse } from '../src/http-client/options';
import { undiciFetch } from '../src/node/undici-fetch';

let server: Server;
let base: URL;
let fetching: ReturnType<typeof undiciFetch>;

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

async function textOf(response: HttpFetchResponse): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

const post = (body: string, signal = new AbortController().signal): HttpFetchInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
  signal,
});

beforeEach(async () => {
  server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    if (request.url === '/moved') {
      response.writeHead(307, { location: '/mcp' }).end();
    } else if (request.url === '/many') {
      response.writeHead(200, { 'x-twice': ['a', 'b'], 'content-type': 'text/plain' });
      response.end('ok');
    } else if (request.url === '/endless') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': open\n\n');
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, path: request.url, body }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  fetching = undiciFetch();
});

afterEach(async () => {
  await fetching.closeFetch();
  server.closeAllConnections();
  server.close();
});

describe('undiciFetch', () => {
  it('answers with the status, the headers and the body as a stream', async () => {
    const response = await fetching.fetch(new URL('/mcp?x=1', base), post('{"a":1}'));
    expect([response.status, response.ok]).toEqual([200, true]);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('x-absent')).toBeNull();
    expect(JSON.parse(await textOf(response))).toEqual({
      method: 'POST',
      path: '/mcp?x=1',
      body: '{"a":1}',
    });
  });

  it('joins a repeated header as fetch does', async () => {
    const response = await fetching.fetch(new URL('/many', base), post(''));
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(await textOf(response)).toBe('ok');
  });

  it('follows a redirect, sending the body again on a 307', async () => {
    const response = await fetching.fetch(new URL('/moved', base), post('{"again":true}'));
    expect(JSON.parse(await textOf(response))).toEqual({
      method: 'POST',
      path: '/mcp',
      body: '{"again":true}',
    });
  });

  it('rejects an unreachable server with TypeError("fetch failed"), the cause inside', async () => {
    const closed = new URL(base);
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
    const failure = await fetching.fetch(closed, post('{}')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(((failure as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('refuses a URL with credentials, as fetch does', async () => {
    const secret = new URL(base);
    secret.username = 'user';
    secret.password = 'pass';
    await expect(fetching.fetch(secret, post('{}'))).rejects.toThrow(TypeError);
  });

  it('rejects with the signal’s reason when aborted before the answer', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(fetching.fetch(base, post('{}', controller.signal))).rejects.toBe(reason);
  });

  it('ends the body with an error when aborted while reading, and the pool goes on', async () => {
    const controller = new AbortController();
    const response = await fetching.fetch(new URL('/endless', base), {
      method: 'GET',
      headers: {},
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort(new Error('enough'));
    await expect(reader.read()).rejects.toBeDefined();
    const next = await fetching.fetch(base, post('{"after":1}'));
    expect(JSON.parse(await textOf(next)).body).toBe('{"after":1}');
  });

  it('cancelling the body releases the connection', async () => {
    const response = await fetching.fetch(new URL('/endless', base), {
      method: 'GET',
      headers: {},
      signal: new AbortController().signal,
    });
    await (response.body as ReadableStream<Uint8Array>).cancel();
    const next = await fetching.fetch(base, post('{"after":2}'));
    expect(JSON.parse(await textOf(next)).body).toBe('{"after":2}');
  });
});
