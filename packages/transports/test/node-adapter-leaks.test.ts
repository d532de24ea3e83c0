/**
 * `serve(...).close()` with streams open: every stream ends, legacy sessions close, and no TCP
 * handle is left. Alone in its file so that the handle count starts from a clean process.
 */
import { Agent, request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpExchange } from '../src/http-server/index';
import { serve } from '../src/node';
import { deferred } from './http-server-support';

/** Open TCP handles of this process (client and server sockets, listening servers). */
function tcpHandles(): number {
  return process.getActiveResourcesInfo().filter((name) => name.startsWith('TCP')).length;
}

describe('serve', () => {
  it('close() ends open streams and sessions and leaves no socket behind', async () => {
    const baseline = tcpHandles();
    expect(baseline).toBe(0);
    const agent = new Agent();
    const opened = deferred<HttpExchange>();
    const sessionClosed = deferred<void>();
    const handler = createHttpHandler({
      modern: async (_message, exchange) => {
        await exchange.openStream();
        opened.resolve(exchange);
      },
      legacy: {
        onSession: async (session) => {
          session.onclose = () => sessionClosed.resolve();
          session.onmessage = (message) => {
            if ('id' in message && 'method' in message) {
              void session.send({
                jsonrpc: '2.0',
                id: message.id,
                result: {
                  protocolVersion: '2025-06-18',
                  capabilities: {},
                  serverInfo: { name: 's', version: '1' },
                },
              });
            }
          };
          await session.start();
        },
      },
    });
    const endpoint = await serve(handler);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };

    // A legacy session with an open GET stream.
    const init = await undiciRequest(endpoint.url, {
      dispatcher: agent,
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'c', version: '1' },
        },
      }),
    });
    const sessionId = init.headers['mcp-session-id'] as string;
    await init.body.dump();
    const get = await undiciRequest(endpoint.url, {
      dispatcher: agent,
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
    });
    expect(get.statusCode).toBe(200);
    const getEnded = get.body.text().then(
      () => 'ended',
      () => 'ended',
    );

    // A modern request whose stream stays open.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const listen = await undiciRequest(endpoint.url, {
      dispatcher: agent,
      method: 'POST',
      headers: {
        ...headers,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { _meta: meta },
      }),
    });
    const exchange = await opened.promise;
    const listenEnded = listen.body.text().then(
      () => 'ended',
      () => 'ended',
    );
    const exchangeAborted = new Promise((resolve) =>
      exchange.signal.addEventListener('abort', resolve),
    );

    await endpoint.close();
    await sessionClosed.promise;
    await exchangeAborted;
    expect(await getEnded).toBe('ended');
    expect(await listenEnded).toBe('ended');
    expect(endpoint.server.listening).toBe(false);
    await agent.close();
    expect(tcpHandles()).toBe(baseline);
  });
});
