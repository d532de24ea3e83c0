import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerHttpHandler, type ServerHttpHandlerOptions } from '../src/serve/http-handler';
import { ACCEPT, legacyPost, messagesOf, modernPost } from './support/http-posts';
import { eventually, MODERN, modernParams } from './support/peer';
import { createTestServer } from './support/test-server';

const endpoints: ServedEndpoint[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
});

async function start(options?: ServerHttpHandlerOptions, server = createTestServer()) {
  const endpoint = await serve(createServerHttpHandler(server, options), { port: 0 });
  endpoints.push(endpoint);
  return { url: endpoint.url, server };
}

describe('createServerHttpHandler: modern', () => {
  it('serves discover, tools/list and tools/call statelessly with the mapped statuses', async () => {
    const { url } = await start();
    const discover = await modernPost(url, 1, 'server/discover', modernParams());
    expect(discover.status).toBe(200);
    expect(discover.headers.get('mcp-session-id')).toBeNull();
    expect((await messagesOf(discover))[0]).toMatchObject({
      id: 1,
      result: { resultType: 'complete', ttlMs: 60_000 },
    });

    const unsupported = await modernPost(
      url,
      2,
      'tools/list',
      modernParams({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
    );
    expect(unsupported.status).toBe(400);
    expect((await messagesOf(unsupported))[0]).toMatchObject({
      id: 2,
      error: { code: -32022, data: { requested: '2099-01-01' } },
    });

    const ping = await modernPost(url, 3, 'ping', modernParams());
    expect(ping.status).toBe(404);
    expect((await messagesOf(ping))[0]).toMatchObject({ error: { code: -32601 } });

    const call = await modernPost(
      url,
      4,
      'tools/call',
      modernParams({ name: 'echo', arguments: { text: 'hi' } }, { progressToken: 'p' }),
    );
    const messages = await messagesOf(call);
    expect(messages.map((m) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(messages[2]).toMatchObject({
      id: 4,
      result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' },
    });
  });

  it('answers 400 -32602 for a request without _meta', async () => {
    const { url } = await start();
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    expect((await messagesOf(response))[0]).toMatchObject({ id: 1, error: { code: -32602 } });
  });

  it('cancels the handler when the client closes the stream', async () => {
    const { url, server } = await start();
    const controller = new AbortController();
    const pending = modernPost(url, 1, 'tools/call', modernParams({ name: 'hang' }), {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await eventually(() => server.operations.aborted.length === 1);
  });

  it('serves 405 on GET when modern-only', async () => {
    const { url } = await start({ legacy: false });
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    const init = await fetch(url, {
      method: 'POST',
      headers: ACCEPT,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'c', version: '1' },
        },
      }),
    });
    expect(init.status).toBe(400);
  });
});

describe('createServerHttpHandler: legacy', () => {
  it('runs a session: initialize, initialized, tools, GET stream notifications, DELETE', async () => {
    const { url, server } = await start();
    const init = await legacyPost(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    expect((await messagesOf(init))[0]).toMatchObject({
      result: { protocolVersion: '2025-11-25' },
    });
    const session = { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-11-25' };
    expect(
      (await legacyPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session))
        .status,
    ).toBe(202);

    const call = await legacyPost(
      url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'yo' } },
      },
      session,
    );
    const [answer] = await messagesOf(call);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'yo' }] },
    });

    // A modern request carrying the session id is served statelessly, not by the session.
    const modern = await modernPost(url, 3, 'tools/list', modernParams(), {
      headers: { 'mcp-session-id': sessionId as string },
    });
    expect((await messagesOf(modern))[0]).toMatchObject({ result: { resultType: 'complete' } });

    const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...session } });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    server.operations.setToolEnabled('hang', false);
    let seen = '';
    while (!seen.includes('list_changed') && reader) {
      const chunk = await reader.read();
      if (chunk.done) break;
      seen += new TextDecoder().decode(chunk.value);
    }
    expect(seen).toContain('notifications/tools/list_changed');
    await reader?.cancel();

    expect((await fetch(url, { method: 'DELETE', headers: session })).status).toBe(200);
    await eventually(() => server.operations.listenerCount === 0);
    const after = await legacyPost(url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, session);
    expect(after.status).toBe(404);
  });

  it('serves legacy requests without sessions in stateless mode', async () => {
    const { url } = await start({ legacy: { stateless: true } });
    const list = await legacyPost(
      url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect((await messagesOf(list))[0]).toMatchObject({
      id: 1,
      result: { tools: expect.any(Array) },
    });
  });
});
