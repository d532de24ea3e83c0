/**
 * What a host tells the server core beside the `Request`: a body a framework already read
 * (`parsedBody`), and the local address that turns on the default Host check; and the node
 * adapter's side of both (a stream a body parser consumed, the socket's address).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpRequestContext } from '../src/http-server/index';
import { toNodeListener } from '../src/node';
import { modernHeaders, modernRequest } from './http-server-support';

const handler = createHttpHandler({
  modern: (message, exchange) =>
    'id' in message ? exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} }) : undefined,
});

function post(body: string | null, headers: Record<string, string> = {}) {
  const message = modernRequest('tools/list');
  return new Request('http://127.0.0.1:3000/', {
    method: 'POST',
    headers: { ...modernHeaders(message), ...headers },
    body,
  });
}

describe('parsedBody', () => {
  it.each([
    ['a parsed value', modernRequest('tools/list')],
    ['its text', JSON.stringify(modernRequest('tools/list'))],
    ['its bytes', new TextEncoder().encode(JSON.stringify(modernRequest('tools/list')))],
  ])('takes %s in place of the stream', async (_, parsedBody) => {
    const response = await handler(post(null), { parsedBody });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: {} });
  });

  it('refuses a parsed batch as it would a posted one', async () => {
    const response = await handler(post(null), { parsedBody: [modernRequest('tools/list')] });
    expect(response.status).toBe(400);
  });

  it('answers a body read before it came, with nothing in its place, with a 500 that says why', async () => {
    const request = post(JSON.stringify(modernRequest('tools/list')));
    await request.text();
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('already read');
  });
});

describe('the default Host and Origin checks', () => {
  const loopback: HttpRequestContext = { localAddress: { address: '127.0.0.1', port: 3000 } };

  it.each([
    ['a loopback name on a loopback connection', 'localhost:3000', loopback, 200],
    ['a foreign name on a loopback connection', 'rebind.example:3000', loopback, 403],
    ['another port on a loopback connection', 'localhost:1', loopback, 403],
    ['a foreign name, the connection unknown', 'mcp.example', {}, 200],
    [
      'a foreign name on a public address',
      'mcp.example',
      { localAddress: { address: '10.0.0.5', port: 443 } },
      200,
    ],
  ])('%s: %i', async (_, host, context, status) => {
    const parsedBody = modernRequest('tools/list');
    const response = await handler(post(null, { host }), { ...context, parsedBody });
    expect(response.status).toBe(status);
  });

  it('refuses a browser Origin that is not loopback, whatever the Host, unless listed', async () => {
    const parsedBody = modernRequest('tools/list');
    const request = () => post(null, { host: 'rebind.example', origin: 'http://rebind.example' });
    expect((await handler(request(), { parsedBody })).status).toBe(403);
    const open = createHttpHandler({
      allowedOrigins: false,
      modern: (message, exchange) =>
        'id' in message
          ? exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} })
          : undefined,
    });
    expect((await open(request(), { parsedBody })).status).toBe(200);
  });
});

describe('toNodeListener behind a body parser', () => {
  /** A node:http server that reads the body first, as express.json() does, then the handler. */
  async function parsingServer(setBody: boolean) {
    const listener = toNodeListener(handler);
    const server = createServer((req: IncomingMessage & { body?: unknown }, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => {
        if (setBody) req.body = JSON.parse(text);
        listener(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { server, url: `http://127.0.0.1:${port}/` };
  }

  it.each([
    [true, 200, '"result"'],
    [false, 500, 'already read'],
  ])('with req.body set: %s → %i, never a hang', async (setBody, status, text) => {
    const { server, url } = await parsingServer(setBody);
    const message = modernRequest('tools/list');
    const response = await undiciRequest(url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
    });
    expect(response.statusCode).toBe(status);
    expect(await response.body.text()).toContain(text);
    await new Promise((resolve) => server.close(resolve));
  });
});
