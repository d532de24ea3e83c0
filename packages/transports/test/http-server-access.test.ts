/**
 * The core's access-control hooks: authenticate before anything is read, authorize each parsed
 * message, the grant handed on to both eras, and legacy sessions bound to their owner.
 */
import type { JsonRpcMessage } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  type HttpAccessControl,
  type HttpExchange,
  type HttpMessageContext,
  type LegacyHooks,
} from '../src/http-server/index';
import { initializeRequest, modernHeaders, modernRequest } from './http-server-support';

const URL_ = 'http://127.0.0.1/mcp';

/** A grant per bearer value: `alice` and `bob` are users, anything else is refused. */
const access: HttpAccessControl = {
  authenticate: async (request) => {
    const user = request.headers.get('authorization')?.replace(/^Bearer /, '');
    if (user !== 'alice' && user !== 'bob') return new Response(null, { status: 401 });
    return { auth: { user }, owner: user };
  },
  authorize: (message) =>
    'method' in message && message.method === 'tools/call'
      ? new Response(null, { status: 403 })
      : undefined,
};

/** A legacy server that answers every request with `{}` and records what it got. */
function recordingLegacy() {
  const contexts: (HttpMessageContext | undefined)[] = [];
  const hooks: LegacyHooks = {
    onSession: async (session) => {
      session.onmessage = (message, context) => {
        contexts.push(context);
        if (!('method' in message) || !('id' in message)) return;
        const result =
          message.method === 'initialize'
            ? {
                protocolVersion: '2025-06-18',
                capabilities: {},
                serverInfo: { name: 's', version: '1' },
              }
            : {};
        void session.send({ jsonrpc: '2.0', id: message.id, result });
      };
      await session.start();
    },
  };
  return { hooks, contexts };
}

function legacyPost(message: JsonRpcMessage, user: string | undefined, sessionId?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (user !== undefined) headers.authorization = `Bearer ${user}`;
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return new Request(URL_, { method: 'POST', headers, body: JSON.stringify(message) });
}

describe('access control in the HTTP core', () => {
  it('refuses before reading the body, and hands the grant to modern exchanges', async () => {
    const exchanges: HttpExchange[] = [];
    const handler = createHttpHandler({
      access,
      modern: (message, exchange) => {
        exchanges.push(exchange);
        if ('id' in message) void exchange.respond({ jsonrpc: '2.0', id: message.id, result: {} });
      },
    });
    const list = modernRequest('tools/list');
    // A body that is not JSON: a 401 proves it was never parsed.
    const anonymous = new Request(URL_, {
      method: 'POST',
      headers: modernHeaders(list),
      body: '{',
    });
    expect((await handler(anonymous)).status).toBe(401);

    const headers = { ...modernHeaders(list), authorization: 'Bearer alice' };
    const body = JSON.stringify(list);
    expect((await handler(new Request(URL_, { method: 'POST', headers, body }))).status).toBe(200);
    expect(exchanges.map((exchange) => exchange.auth)).toEqual([{ user: 'alice' }]);

    const call = modernRequest('tools/call', { name: 'x' });
    const callHeaders = { ...modernHeaders(call), authorization: 'Bearer alice' };
    const refused = await handler(
      new Request(URL_, { method: 'POST', headers: callHeaders, body: JSON.stringify(call) }),
    );
    expect(refused.status).toBe(403);
    expect(exchanges).toHaveLength(1);
    await handler.close();
  });

  it('hands each POST its own grant in a legacy session, bound to its owner', async () => {
    const server = recordingLegacy();
    const handler = createHttpHandler({ access, legacy: server.hooks });
    const init = await handler(legacyPost(initializeRequest(), 'alice'));
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const list = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list' };
    expect((await handler(legacyPost(list, 'alice', sessionId))).status).toBe(200);
    expect(server.contexts.map((context) => context?.auth)).toEqual([
      { user: 'alice' },
      { user: 'alice' },
    ]);

    // Another user's token with alice's session id: as if the session did not exist.
    expect((await handler(legacyPost({ ...list, id: 2 }, 'bob', sessionId))).status).toBe(404);
    const get = (user: string) =>
      new Request(URL_, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${user}`,
          'mcp-session-id': sessionId,
        },
      });
    expect((await handler(get('bob'))).status).toBe(404);
    const del = (user: string | undefined) =>
      new Request(URL_, {
        method: 'DELETE',
        headers: {
          'mcp-session-id': sessionId,
          ...(user === undefined ? {} : { authorization: `Bearer ${user}` }),
        },
      });
    expect((await handler(del(undefined))).status).toBe(401);
    expect((await handler(del('bob'))).status).toBe(404);
    expect(server.contexts).toHaveLength(2);

    const call = { jsonrpc: '2.0' as const, id: 3, method: 'tools/call', params: { name: 'x' } };
    expect((await handler(legacyPost(call, 'alice', sessionId))).status).toBe(403);
    expect((await handler(del('alice'))).status).toBe(200);
    await handler.close();
  });

  it('answers 500 and reports when a hook throws', async () => {
    const errors: Error[] = [];
    const handler = createHttpHandler({
      access: {
        authenticate: async () => {
          throw new Error('verifier down');
        },
      },
      modern: () => undefined,
      onerror: (error) => errors.push(error),
    });
    const list = modernRequest('tools/list');
    const request = new Request(URL_, {
      method: 'POST',
      headers: modernHeaders(list),
      body: JSON.stringify(list),
    });
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: -32603 } });
    expect(errors.map((error) => error.message)).toEqual(['verifier down']);
  });
});
