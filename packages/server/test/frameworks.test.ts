/**
 * The framework adapters in real apps (express behind `express.json()`, fastify with its
 * default parser, hono on `@hono/node-server`, Next.js route handlers given a real
 * `NextRequest`; see fixtures/framework-apps), each serving the official clients: the modern
 * `@modelcontextprotocol/client` 2.4.0 and the legacy `@modelcontextprotocol/sdk` 1.32.2,
 * whose elicitation travels on the SSE stream of its POST.
 */
import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FRAMEWORK_APPS, type FrameworkApp } from './fixtures/framework-apps';
import { closeInteropClients, connectClient, connectSdkClient } from './fixtures/interop-clients';
import { GREETING_URI } from './fixtures/interop-server';
import { ACCEPT } from './support/http-posts';

/** The status of a POST naming `host` (fetch cannot set `Host`). */
async function postWithHost(url: URL, host: string): Promise<number | undefined> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const sent = request(url, { method: 'POST', headers: { ...ACCEPT, host } });
  sent.end(body);
  const [response] = (await once(sent, 'response')) as [IncomingMessage];
  response.resume();
  return response.statusCode;
}

let app: FrameworkApp | undefined;
afterEach(async () => {
  await closeInteropClients();
  await app?.close();
  app = undefined;
});

describe.each(Object.entries(FRAMEWORK_APPS))('%s', (_, start) => {
  it('serves @modelcontextprotocol/client 2.4.0 in the modern era', async () => {
    app = await start();
    const { client, era } = await connectClient('auto', app.url);
    expect(era).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add', 'confirm']);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'accept: yes' }],
    });
  });

  it('serves @modelcontextprotocol/sdk 1.32.2 in a legacy session', async () => {
    app = await start();
    const client = await connectSdkClient(app.url);
    expect(client.getServerVersion()).toMatchObject({ name: 'interop', version: '1.0.0' });
    const read = await client.readResource({ uri: GREETING_URI });
    expect(read.contents).toEqual([{ uri: GREETING_URI, mimeType: 'text/plain', text: 'hello' }]);
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'decline: no' }],
    });
  });

  it('refuses a Host that is not its own (DNS rebinding)', async () => {
    app = await start();
    expect(await postWithHost(app.url, `rebind.example:${app.url.port}`)).toBe(403);
  });
});
