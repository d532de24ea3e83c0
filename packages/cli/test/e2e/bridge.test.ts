/**
 * `twofold bridge` through the built binary, both directions: server-everything (legacy stdio)
 * published on HTTP and reached by the official client 2.4.0 in modern mode and by twofold's
 * client (progress and an input round crossing), and twofold's everything server (HTTP) served
 * on the bridge's stdio to a client that spawns it, in both eras.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpClient } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingHttp, freshCache, referenceStdio, twofoldInBackground } from './support';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** Starts `twofold bridge --listen 127.0.0.1:0` on server-everything; resolves with its URL. */
async function httpBridge(): Promise<{
  url: string;
  stop: () => Promise<{ code: number | null }>;
}> {
  const running = twofoldInBackground([
    'bridge',
    '--listen',
    '127.0.0.1:0',
    '--',
    ...referenceStdio(),
  ]);
  await running.waitFor(/published on (http:\/\/\S+), for both eras/);
  const url = /published on (http:\/\/\S+),/.exec(running.output().stderr)?.[1] as string;
  return { url, stop: () => running.interrupt() };
}

const text = (result: unknown) => JSON.stringify((result as { content: unknown }).content);

describe('twofold bridge', { timeout: 60_000 }, () => {
  it('publishes a legacy stdio server for the official client in modern mode', async () => {
    const bridge = await httpBridge();
    const client = new Client(
      { name: 'official', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    closers.push(() => client.close());
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    const echoed = await client.callTool({
      name: 'echo',
      arguments: { message: 'through the bridge' },
    });
    expect(text(echoed)).toContain('Echo: through the bridge');
    await client.close();
    expect((await bridge.stop()).code).toBe(130);
  });

  it('carries progress and an input round to a modern twofold client', async () => {
    const bridge = await httpBridge();
    closers.push(bridge.stop);
    const client = await McpClient.connect(httpServer({ url: bridge.url }), {
      clientInfo: { name: 'downstream', version: '1.0.0' },
      handlers: {
        elicitation: async () => ({ action: 'accept', content: { name: 'Grace Hopper' } }),
      },
    });
    closers.push(() => client.close());
    expect(client.era).toBe('modern');
    const progress: number[] = [];
    const long = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.2, steps: 2 },
      {
        onProgress: (update) => progress.push(update.progress),
      },
    );
    expect(text(long)).toContain('completed');
    expect(progress).toEqual([1, 2]);
    const elicited = await client.callTool('trigger-elicitation-request', {});
    expect(text(elicited)).toContain('Grace Hopper');
  });

  it.each(['auto', 'legacy'] as const)(
    'serves an HTTP server on stdio (downstream %s)',
    async (era) => {
      const url = await everythingHttp();
      const target = stdioServer({
        command: process.execPath,
        args: [BIN, 'bridge', '--url', url],
        env: { TWOFOLD_CACHE_DIR: freshCache() },
      });
      const client = await McpClient.connect(target, {
        clientInfo: { name: 'host', version: '1.0.0' },
        era,
      });
      closers.push(() => client.close());
      expect(client.era).toBe(era === 'auto' ? 'modern' : 'legacy');
      const sum = await client.callTool('add', { a: 20, b: 22 });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const progress: number[] = [];
      await client.callTool(
        'test_tool_with_progress',
        {},
        { onProgress: (p) => progress.push(p.progress) },
      );
      expect(progress).toEqual([0, 50, 100]);
    },
  );
});
