/** End to end with the real `McpServer` (registry + operations), both eras, stdio-like and HTTP. */
import type { JsonRpcResponse } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import { createServerHttpHandler } from '../src/serve/http-handler';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import { eventually, modernParams, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';

useCleanups();

function createServer() {
  const server = new McpServer({ name: 'real', version: '2.0.0', instructions: 'Be nice.' });
  const add = server.registerTool({
    name: 'add',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    handler: (args: { a: number; b: number }) => String(args.a + args.b),
  });
  server.registerResource({
    uri: 'test://static-text',
    name: 'static',
    mimeType: 'text/plain',
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'static text' }] }),
  });
  server.registerPrompt({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    get: (args: { who: string }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.who}` } }],
    }),
  });
  return { server, add };
}

describe('serving McpServer', () => {
  it('serves both eras on one in-memory connection', async () => {
    const { server, add } = createServer();
    const [clientEnd, serverEnd] = createInMemoryPair();
    await serveTransport(server, serverEnd);
    const peer = new TestPeer(clientEnd);
    await peer.start();
    cleanups.push(() => peer.close());

    const discover = resultOf(await peer.request('server/discover', modernParams()));
    expect(discover).toMatchObject({ resultType: 'complete', instructions: 'Be nice.' });
    const sum = resultOf(
      await peer.request('tools/call', modernParams({ name: 'add', arguments: { a: 2, b: 3 } })),
    );
    expect(sum).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: '5' }] });
    const invalid = resultOf(
      await peer.request('tools/call', modernParams({ name: 'add', arguments: { a: 'x' } })),
    );
    expect(invalid.isError).toBe(true);
    const missing = await peer.request('resources/read', modernParams({ uri: 'test://nope' }));
    expect(errorOf(missing).code).toBe(-32602);

    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    await peer.notify('notifications/initialized');
    const legacyMissing = await peer.request('resources/read', { uri: 'test://nope' });
    expect(errorOf(legacyMissing).code).toBe(-32002);
    const prompt = resultOf(
      await peer.request('prompts/get', { name: 'greet', arguments: { who: 'Ada' } }),
    );
    expect(prompt).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }],
    });
    add.disable();
    await eventually(() =>
      peer.notifications.some((n) => n.method === 'notifications/tools/list_changed'),
    );
    expect(resultOf(await peer.request('tools/list')).tools).toEqual([]);
  });

  it('serves modern requests over HTTP', async () => {
    const { server } = createServer();
    const endpoint: ServedEndpoint = await serve(createServerHttpHandler(server), { port: 0 });
    cleanups.push(() => endpoint.close());
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: modernParams() };
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const message = (await response.json()) as JsonRpcResponse;
    expect(resultOf(message)).toMatchObject({ resultType: 'complete', tools: [{ name: 'add' }] });
  });
});
