/**
 * Bad input against the Streamable HTTP server core, served on 127.0.0.1 and driven with plain
 * fetch: each fault gets its status and a JSON-RPC error body, and never reaches the handler.
 */
import {
  ErrorCode,
  type JsonRpcRequest,
  type McpHeaderParam,
} from '@twofold/protocol/experimental';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import { errorBody, initializeRequest, modernHeaders, modernRequest } from './http-server-support';

const MAX_BODY = 64 * 1024;
const headerParams: Record<string, McpHeaderParam[]> = {
  search: [
    { header: 'Query', path: ['query'], type: 'string' },
    { header: 'Limit', path: ['limit'], type: 'integer' },
  ],
};
const modern = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  modernRequest(method, params, id);

function headersFor(message: JsonRpcRequest): Record<string, string> {
  const name = message.params?.name;
  return modernHeaders(message, typeof name === 'string' ? headerParams[name] : undefined);
}

let endpoint: ServedEndpoint;
let handled: JsonRpcRequest[] = [];

async function post(body: string | Uint8Array, headers: Record<string, string>): Promise<Response> {
  return fetch(endpoint.url, { method: 'POST', headers, body });
}

async function postMessage(
  message: JsonRpcRequest,
  overrides: Record<string, string | undefined> = {},
): Promise<Response> {
  // Header names are case-insensitive: an override replaces the built header of any case.
  const headers = new Headers(headersFor(message));
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
  return fetch(endpoint.url, { method: 'POST', headers, body: JSON.stringify(message) });
}

async function expectError(response: Response, status: number, code: number, id?: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = await errorBody(response);
  expect(body.error.code).toBe(code);
  if (id === undefined) expect(body).not.toHaveProperty('id');
  else expect(body.id).toBe(id);
  expect(handled).toEqual([]);
  return body;
}

beforeAll(async () => {
  const handler = createHttpHandler({
    maxBodyBytes: MAX_BODY,
    headerParams: (tool) => headerParams[tool],
    modern: async (message, exchange) => {
      if (!('id' in message)) return;
      handled.push(message);
      await exchange.respond({ jsonrpc: '2.0', id: message.id, result: { ok: true } });
    },
  });
  endpoint = await serve(handler);
});

beforeEach(() => {
  handled = [];
});

afterAll(async () => {
  await endpoint.close();
  expect(endpoint.server.listening).toBe(false);
  const open = await new Promise<number>((resolve, reject) =>
    endpoint.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
  expect(open).toBe(0);
});

describe('body limits and decoding', () => {
  it('accepts a well-formed request (baseline)', async () => {
    const response = await postMessage(modern('tools/list'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    expect(handled).toHaveLength(1);
    handled = [];
  });

  it('refuses a body whose Content-Length is over the limit with 413', async () => {
    const big = JSON.stringify(modern('tools/list', { pad: 'x'.repeat(MAX_BODY) }));
    await expectError(
      await post(big, headersFor(modern('tools/list'))),
      413,
      ErrorCode.InvalidRequest,
    );
  });

  it('refuses a chunked body without length once it passes the limit with 413', async () => {
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the limit; the server must stop reading long before the end.
        if (chunks++ < 1024) controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
        else controller.close();
      },
    });
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: headersFor(modern('tools/list')),
      body,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, ErrorCode.InvalidRequest);
    expect(chunks).toBeLessThan(1024);
  });

  it('answers invalid UTF-8 with 400 and -32700', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(modern('tools/list')));
    const broken = new Uint8Array([...bytes.slice(0, 10), 0xff, 0xfe, ...bytes.slice(10)]);
    await expectError(
      await post(broken, headersFor(modern('tools/list'))),
      400,
      ErrorCode.ParseError,
    );
  });

  it('answers text that is not JSON with 400 and -32700', async () => {
    await expectError(
      await post('{"jsonrpc":', headersFor(modern('tools/list'))),
      400,
      ErrorCode.ParseError,
    );
  });

  it('answers a JSON array (a batch) with 400 and -32600', async () => {
    const batch = JSON.stringify([modern('tools/list', {}, 1), modern('tools/list', {}, 2)]);
    const body = await expectError(
      await post(batch, headersFor(modern('tools/list'))),
      400,
      ErrorCode.InvalidRequest,
    );
    expect(body.error.message).toMatch(/batch/i);
  });

  it('answers an invalid envelope with 400, naming the readable id', async () => {
    const body = JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    await expectError(
      await post(body, headersFor(modern('tools/list'))),
      400,
      ErrorCode.InvalidRequest,
      7,
    );
  });
});

describe('content negotiation', () => {
  it('refuses a wrong Content-Type with 415', async () => {
    await expectError(
      await postMessage(modern('tools/list'), { 'content-type': 'text/plain' }),
      415,
      ErrorCode.InvalidRequest,
    );
  });

  it('refuses a charset other than UTF-8 with 415 but takes an explicit UTF-8', async () => {
    const latin = await postMessage(modern('tools/list'), {
      'content-type': 'application/json; charset=latin1',
    });
    await expectError(latin, 415, ErrorCode.InvalidRequest);
    const utf8 = await postMessage(modern('tools/list'), {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(utf8.status).toBe(200);
  });

  it.each([
    ['only JSON', 'application/json'],
    ['only SSE', 'text/event-stream'],
    ['SSE refused with q=0', 'application/json, text/event-stream;q=0'],
  ])('refuses an Accept with %s with 406', async (_, accept) => {
    await expectError(
      await postMessage(modern('tools/list'), { accept }),
      406,
      ErrorCode.InvalidRequest,
    );
  });

  it('refuses a POST without Accept with 406', async () => {
    // fetch always adds `Accept: */*`; undici's request sends only what it is given.
    const message = modern('tools/list');
    const { accept: _, ...headers } = headersFor(message);
    const response = await undiciRequest(endpoint.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
    });
    expect(response.statusCode).toBe(406);
    await response.body.dump();
    expect(handled).toEqual([]);
  });

  it.each([['*/*'], ['application/*, text/*'], ['text/event-stream;q=0.5, application/json']])(
    'takes Accept: %s',
    async (accept) => {
      expect((await postMessage(modern('tools/list'), { accept })).status).toBe(200);
      handled = [];
    },
  );
});

describe('modern header validation', () => {
  const call = (args: Record<string, unknown>) =>
    modern('tools/call', { name: 'search', arguments: args });

  it('refuses an Mcp-Method that disagrees with the body with 400 and -32020', async () => {
    const body = await expectError(
      await postMessage(modern('tools/list'), { 'mcp-method': 'prompts/list' }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
    expect(body.error.data).toEqual({ header: 'Mcp-Method' });
  });

  it('refuses an Mcp-Name that disagrees with the body', async () => {
    await expectError(
      await postMessage(call({ query: 'a' }), { 'mcp-name': 'other' }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
  });

  it('refuses an MCP-Protocol-Version that disagrees with the body _meta', async () => {
    await expectError(
      await postMessage(modern('tools/list'), { 'mcp-protocol-version': '2026-01-01' }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
  });

  it('decodes a Base64 sentinel in Mcp-Param-* before comparing', async () => {
    const message = call({ query: 'café ☕' });
    expect(headersFor(message)['Mcp-Param-Query']).toMatch(/^=\?base64\?/);
    expect((await postMessage(message)).status).toBe(200);
    handled = [];
    const wrong = `=?base64?${btoa('cafe')}?=`;
    await expectError(
      await postMessage(message, { 'mcp-param-query': wrong }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
  });

  it('compares integers numerically (42.0 equals 42, 43 does not)', async () => {
    const message = call({ query: 'q', limit: 42 });
    expect((await postMessage(message, { 'mcp-param-limit': '42.0' })).status).toBe(200);
    handled = [];
    await expectError(
      await postMessage(message, { 'mcp-param-limit': '43' }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
  });

  it('refuses a missing Mcp-Param-* for an argument present in the body', async () => {
    await expectError(
      await postMessage(call({ query: 'q' }), { 'mcp-param-query': undefined }),
      400,
      ErrorCode.HeaderMismatch,
      1,
    );
  });

  it('refuses a POST with no version anywhere (2025-03-26 is not offered)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    await expectError(
      await post(body, {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      }),
      400,
      ErrorCode.HeaderMismatch,
      3,
    );
  });

  it('answers a legacy initialize on a modern-only endpoint with 400 and the modern versions', async () => {
    const response = await post(JSON.stringify(initializeRequest('2025-11-25', 9)), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    const body = await expectError(response, 400, ErrorCode.UnsupportedProtocolVersion, 9);
    expect(body.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  it('refuses a response POSTed by a modern client', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), {
      ...headersFor(modern('tools/list')),
    });
    await expectError(response, 400, ErrorCode.InvalidRequest);
  });
});

describe('Origin and Host', () => {
  it('refuses a foreign Origin on a loopback endpoint with 403', async () => {
    await expectError(
      await postMessage(modern('tools/list'), { origin: 'https://evil.example' }),
      403,
      ErrorCode.InvalidRequest,
    );
    await expectError(
      await postMessage(modern('tools/list'), { origin: 'null' }),
      403,
      ErrorCode.InvalidRequest,
    );
  });

  it('takes a loopback Origin', async () => {
    const response = await postMessage(modern('tools/list'), {
      origin: `http://localhost:${endpoint.url.port}`,
    });
    expect(response.status).toBe(200);
    handled = [];
  });

  // fetch never sends a Host of the caller's choosing; undici's request does.
  it.each([
    ['a rebinding name', 'rebind.example', 403],
    ['localhost', 'localhost', 200],
  ])('checks the Host header: %s gets %i', async (_, name, status) => {
    const message = modern('tools/list');
    const response = await undiciRequest(endpoint.url, {
      method: 'POST',
      headers: { ...headersFor(message), host: `${name}:${endpoint.url.port}` },
      body: JSON.stringify(message),
    });
    expect(response.statusCode).toBe(status);
    expect(handled).toHaveLength(status === 200 ? 1 : 0);
    await response.body.dump();
    handled = [];
  });

  it('applies an explicit allowedOrigins list', async () => {
    const handler = createHttpHandler({
      allowedOrigins: ['https://app.example'],
      modern: (message, exchange) =>
        'id' in message
          ? exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} })
          : undefined,
    });
    const request = (origin: string) => {
      const message = modern('tools/list');
      return handler(
        new Request('http://127.0.0.1/', {
          method: 'POST',
          headers: { ...headersFor(message), origin },
          body: JSON.stringify(message),
        }),
      );
    };
    expect((await request('https://app.example')).status).toBe(200);
    expect((await request('https://evil.example')).status).toBe(403);
    expect((await request('http://localhost:3000')).status).toBe(403);
  });
});

describe('methods on a modern-only endpoint', () => {
  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(endpoint.url, {
      method,
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    await response.body?.cancel();
  });
});
