/**
 * The second handler argument (`{ parsedBody, localAddress }`) reaches the transports core
 * through `createServerHttpHandler`, with and without `auth`: a body a framework already read
 * is answered, and a loopback connection gets the default Host check.
 */
import { buildRequestHeaders } from '@twofold/protocol/experimental';
import type { HttpRequestContext } from '@twofold/transports/http-server';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidTokenError } from '../src/auth/types';
import { createServerHttpHandler, type ServerHttpHandlerOptions } from '../src/serve/http-handler';
import { ACCEPT } from './support/http-posts';
import { MODERN, modernParams } from './support/peer';
import { createTestServer } from './support/test-server';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
const withAuth: ServerHttpHandlerOptions = {
  auth: {
    verifyToken: async (token) => {
      if (token !== 'good') throw new InvalidTokenError('unknown token');
      return { scopes: [], subject: 'alice' };
    },
    resourceMetadata: { resource: RESOURCE, authorization_servers: ['https://issuer.example'] },
  },
};

const handlers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

const toolsList = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: modernParams() };

/** A POST whose stream a framework already read: no body left, only the headers. */
function readByFramework(host = '127.0.0.1:3000'): Request {
  return new Request(RESOURCE, {
    method: 'POST',
    headers: {
      ...ACCEPT,
      ...buildRequestHeaders(toolsList, MODERN),
      host,
      authorization: 'Bearer good',
    },
  });
}

describe.each([
  ['without auth', {}],
  ['with auth', withAuth],
])('createServerHttpHandler %s', (_, options: ServerHttpHandlerOptions) => {
  function start() {
    const handler = createServerHttpHandler(createTestServer(), options);
    handlers.push(handler);
    return handler;
  }

  it('answers from the parsed body it is given', async () => {
    const response = await start()(readByFramework(), { parsedBody: toolsList });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  it('checks Host against the loopback address it is given', async () => {
    const loopback: HttpRequestContext = {
      parsedBody: toolsList,
      localAddress: { address: '127.0.0.1', port: 3000 },
    };
    const response = await start()(readByFramework('rebind.example:3000'), loopback);
    expect(response.status).toBe(403);
  });
});
