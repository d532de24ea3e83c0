/** `serveHttp`: a real McpServer served over Streamable HTTP on node:http in one call. */

import { StreamableHttpClientTransport } from '@twofold/transports/http';
import type { ServedEndpoint } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/node';
import { McpServer } from '../src/server';
import { MODERN, modernParams, TestPeer } from './support/peer';
import { resultOf } from './support/responses';

const endpoints: ServedEndpoint[] = [];
const peers: TestPeer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.close();
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
});

function createServer() {
  const server = new McpServer({ name: 'served', version: '1.0.0' });
  server.registerTool({
    name: 'add',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    handler: (args: { a: number; b: number }) => String(args.a + args.b),
  });
  return server;
}

async function connect(url: URL, era: 'modern' | 'legacy') {
  const peer = new TestPeer(new StreamableHttpClientTransport({ url, era }));
  peers.push(peer);
  await peer.start();
  return peer;
}

const ADD = { name: 'add', arguments: { a: 2, b: 3 } };

describe('serveHttp', () => {
  it('serves a real McpServer in both eras on a loopback port, until closed', async () => {
    const endpoint = await serveHttp(createServer());
    endpoints.push(endpoint);
    expect(endpoint.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const modern = await connect(endpoint.url, 'modern');
    expect(resultOf(await modern.request('tools/call', modernParams(ADD)))).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: '5' }],
    });

    const legacy = await connect(endpoint.url, 'legacy');
    const initialized = resultOf(
      await legacy.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'test', version: '1.0.0' },
      }),
    );
    expect(initialized).toMatchObject({ serverInfo: { name: 'served' } });
    (legacy.transport as StreamableHttpClientTransport).setProtocolVersion('2025-11-25');
    await legacy.notify('notifications/initialized');
    expect(resultOf(await legacy.request('tools/call', ADD))).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });

    // Closing ends the open legacy session and the server: nothing answers afterwards.
    await endpoint.close();
    await expect(fetch(endpoint.url)).rejects.toThrow();
  });

  it("passes the endpoint's options to the handler and the server's to serve", async () => {
    const endpoint = await serveHttp(createServer(), { legacy: false, allowedHosts: ['a.test'] });
    endpoints.push(endpoint);
    // serve's Host check: 127.0.0.1:<port> is no longer accepted.
    expect((await fetch(endpoint.url, { method: 'POST' })).status).toBe(403);

    const modernOnly = await serveHttp(createServer(), { legacy: false });
    endpoints.push(modernOnly);
    const legacy = await connect(modernOnly.url, 'legacy');
    const refused = await legacy.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test', version: '1.0.0' },
    });
    expect(refused).toMatchObject({ error: { code: -32022, data: { supported: [MODERN] } } });

    await expect(serveHttp(createServer(), { headersTimeoutMs: -1 })).rejects.toThrow(RangeError);
  });
});
