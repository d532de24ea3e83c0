/**
 * `context.closeSseStream` (SEP-1699 polling) through `McpServer` over real HTTP: on a 2025-11-25
 * session with an event store a tool closes its call's stream, and the result reaches the
 * client's GET with `Last-Event-ID`; elsewhere the handler sees no `closeSseStream`.
 */
import { InMemoryEventStore } from '@twofold/transports/http-server';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerHttpHandler, type ServerHttpHandlerOptions } from '../src/serve/http-handler';
import { McpServer } from '../src/server';
import { legacyPost, messagesOf } from './support/http-posts';

let endpoint: ServedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** A server whose `poll` tool closes its stream (when it can) before it answers. */
async function start(options: ServerHttpHandlerOptions) {
  const server = new McpServer({ name: 'polling', version: '1.0.0' });
  server.registerTool({
    name: 'poll',
    handler: async (_args, context) => {
      if (context.closeSseStream === undefined) return 'not closable';
      await context.closeSseStream();
      return 'answered after the close';
    },
  });
  endpoint = await serve(createServerHttpHandler(server, options), { port: 0 });
  return { url: endpoint.url };
}

async function initialized(url: URL, version: string) {
  const params = {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  };
  const init = await legacyPost(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params });
  const session = {
    'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
    'mcp-protocol-version': version,
  };
  await init.text();
  await (
    await legacyPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)
  ).text();
  return session;
}

const CALL = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'poll' } };

describe('closeSseStream', () => {
  it('ends the call stream after a priming event; the result comes on the resumed GET', async () => {
    const { url } = await start({
      legacy: { eventStore: new InMemoryEventStore(), retryIntervalMs: 200 },
    });
    const session = await initialized(url, '2025-11-25');
    const body = await (await legacyPost(url, CALL, session)).text();
    expect(body).toMatch(/^retry: 200$/m);
    expect(body).not.toContain('"result"');
    const primingId = /^id: (.+)$/m.exec(body)?.[1] ?? '';
    const resumed = await fetch(url, {
      headers: { accept: 'text/event-stream', ...session, 'last-event-id': primingId },
    });
    const reader = resumed.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    // Bounded: the resumed stream stays open after the result, so read until it has arrived.
    for (let i = 0; i < 50 && !text.includes('"id":2'); i++) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += chunk.value;
    }
    await reader?.cancel();
    expect(text).toContain('answered after the close');
  });

  it('is absent without an event store and on 2025-06-18 sessions', async () => {
    const { url } = await start({});
    const session = await initialized(url, '2025-11-25');
    expect(await messagesOf(await legacyPost(url, CALL, session))).toMatchObject([
      { id: 2, result: { content: [{ type: 'text', text: 'not closable' }] } },
    ]);
    await endpoint?.close();
    const older = await start({ legacy: { eventStore: new InMemoryEventStore() } });
    const olderSession = await initialized(older.url, '2025-06-18');
    expect(await messagesOf(await legacyPost(older.url, CALL, olderSession))).toMatchObject([
      { id: 2, result: { content: [{ type: 'text', text: 'not closable' }] } },
    ]);
  });
});
