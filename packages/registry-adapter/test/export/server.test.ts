/**
 * `serverFromRegistry` exercised by real clients: twofold's McpClient (modern and legacy, over
 * an in-memory pair, HTTP and stdio) and the official `@modelcontextprotocol/client` 2.4.0 over
 * HTTP, including registry changes arriving as list-changed notifications.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ChangeStream, McpClient, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { serveTransport } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/export/function-tool';
import { serverFromRegistry } from '../../src/export/server';
import { InMemoryToolRegistry } from '../../src/registry/memory';
import { buildRegistry } from './fixtures/registry-tools';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const SERVED = ['add', 'greet', 'remove_item', 'schedule', 'search'];
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const STDIO_FIXTURE = fileURLToPath(new URL('./fixtures/registry-stdio.ts', import.meta.url));

function exported() {
  const registry = buildRegistry();
  const exportedServer = serverFromRegistry(registry, {
    server: { name: 'registry', version: '1.0.0' },
  });
  return { registry, ...exportedServer };
}

function memoryTarget(server: ReturnType<typeof exported>['server']): ServerTarget {
  return {
    kind: 'stream',
    key: 'memory:registry',
    open: () => {
      const [clientEnd, serverEnd] = createInMemoryPair();
      const served = serveTransport(server, serverEnd);
      cleanups.push(async () => (await served).close());
      return clientEnd;
    },
  };
}

async function connect(target: ServerTarget, era: 'auto' | 'modern' | 'legacy') {
  const client = new McpClient({
    clientInfo: { name: 'export-test', version: '1.0.0' },
    era,
    requestTimeoutMs: 20_000,
    handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
  });
  cleanups.push(() => client.close());
  await client.connect(target);
  return client;
}

async function toolNames(client: McpClient): Promise<string[]> {
  return (await client.listTools({}, { cache: 'bypass' })).tools.map((tool) => tool.name);
}

async function nextChange(stream: ChangeStream) {
  const next = await stream[Symbol.asyncIterator]().next();
  return next.done ? undefined : next.value;
}

/** The checks every client runs against the exported registry. */
async function exercise(client: McpClient): Promise<void> {
  const { tools } = await client.listTools({}, { cache: 'bypass' });
  expect(tools.map((tool) => tool.name)).toEqual(SERVED);
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  expect(byName.search?.annotations).toEqual({
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: true,
  });
  expect(byName.remove_item?.annotations).toEqual({
    title: 'Remove an item',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
  });
  expect(byName.schedule?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
  expect(byName.add?.outputSchema).toMatchObject({ properties: { sum: { type: 'number' } } });

  expect(await client.callTool('search', { query: 'mcp' })).toMatchObject({
    content: [{ type: 'text', text: 'found mcp (5)' }],
  });
  expect(await client.callTool('add', { a: 2, b: 3 })).toMatchObject({
    structuredContent: { sum: 5 },
  });
  const invalid = await client.callTool('schedule', { at: 'now', code: 'abc' });
  expect(invalid.isError).toBe(true);
  expect(JSON.stringify(invalid.content)).toContain('must start with x');
  expect(await client.callTool('greet', {})).toMatchObject({
    content: [{ type: 'text', text: 'hello Ada (state {"round":1})' }],
  });
}

describe('serverFromRegistry report', () => {
  it('reports lossy schemas and the tool the server refused', () => {
    const { report } = exported();
    expect(report.tools.map((tool) => tool.name)).toEqual(['add', 'bad name!', ...SERVED.slice(1)]);
    expect(report.tools[1]?.skipped).toMatch(/name "bad name!" is invalid/);
    const schedule = report.tools.find((tool) => tool.name === 'schedule');
    expect(schedule?.losses.map((loss) => loss.path)).toEqual([
      '/inputSchema/properties/at',
      '/inputSchema/properties/code',
    ]);
    expect(report.tools.find((tool) => tool.name === 'search')?.losses).toEqual([]);
  });
});

describe.each(['modern', 'legacy'] as const)('serverFromRegistry over memory (%s)', (era) => {
  it('lists in name order with derived annotations and forwards calls and input rounds', async () => {
    const { server } = exported();
    await exercise(await connect(memoryTarget(server), era));
  });

  it('turns registry changes into list-changed notifications', async () => {
    const { server, registry, report } = exported();
    const client = await connect(memoryTarget(server), era);
    const stream = client.listen({ toolsListChanged: true });
    cleanups.push(() => stream.close());
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });

    registry.register(defineTool({ name: 'late', run: () => 'late' }).tool);
    expect(await nextChange(stream)).toEqual({ type: 'toolsListChanged' });
    expect(await toolNames(client)).toEqual([
      'add',
      'greet',
      'late',
      'remove_item',
      'schedule',
      'search',
    ]);
    expect(await client.callTool('late', {})).toMatchObject({ content: [{ text: 'late' }] });

    registry.unregister('search');
    expect(await nextChange(stream)).toEqual({ type: 'toolsListChanged' });
    expect(await toolNames(client)).toEqual(['add', 'greet', 'late', 'remove_item', 'schedule']);
    expect(report.tools.map((tool) => tool.name)).not.toContain('search');
  });

  it('serves an empty registry and follows it as it fills', async () => {
    const registry = new InMemoryToolRegistry();
    const { server } = serverFromRegistry(registry, { server: { name: 'e', version: '1' } });
    const client = await connect(memoryTarget(server), era);
    expect(await toolNames(client)).toEqual([]);
    const stream = client.listen({ toolsListChanged: true });
    cleanups.push(() => stream.close());
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    registry.register(defineTool({ name: 'first', run: () => 'one' }).tool);
    expect(await nextChange(stream)).toEqual({ type: 'toolsListChanged' });
    expect(await toolNames(client)).toEqual(['first']);
  });

  it('stops following the registry on close', async () => {
    const { server, registry, close } = exported();
    const client = await connect(memoryTarget(server), era);
    close();
    registry.register(defineTool({ name: 'after', run: () => 'x' }).tool);
    expect(server.headerParams('after')).toBeUndefined();
    expect(server.headerParams('search')).toBeUndefined();
    await expect(client.callTool('search', { query: 'x' })).rejects.toThrow();
  });
});

describe('serverFromRegistry over HTTP', () => {
  async function endpoint() {
    const exportedServer = exported();
    const served = await serve(createServerHttpHandler(exportedServer.server), { port: 0 });
    cleanups.push(() => served.close());
    return { ...exportedServer, url: served.url };
  }

  it('serves twofold McpClient in both eras', async () => {
    const { url } = await endpoint();
    for (const era of ['auto', 'legacy'] as const) {
      await exercise(await connect(httpServer({ url }), era));
    }
  });

  it.each([
    ['auto', 'modern'],
    ['legacy', 'legacy'],
  ] as const)('serves the official client 2.4.0 (%s)', async (mode, expectedEra) => {
    const { url, registry } = await endpoint();
    const client = new Client(
      { name: 'official', version: '2.4.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
    );
    client.setRequestHandler('elicitation/create', () => ({
      action: 'accept',
      content: { name: 'Grace' },
    }));
    const listChanged = new Promise<void>((resolve) => {
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    cleanups.push(() => client.close());
    expect(client.getProtocolEra()).toBe(expectedEra);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(SERVED);
    expect(await client.callTool({ name: 'search', arguments: { query: 'x' } })).toMatchObject({
      content: [{ type: 'text', text: 'found x (5)' }],
    });
    expect(await client.callTool({ name: 'greet', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'hello Grace (state {"round":1})' }],
    });
    if (expectedEra === 'legacy') {
      // Legacy sessions hear of registry changes on their standalone stream.
      registry.unregister('search');
      await listChanged;
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('search');
    }
  });
});

describe('serverFromRegistry over stdio', () => {
  it('serves a spawned registry server to McpClient', async () => {
    const target = stdioServer({
      command: process.execPath,
      args: ['--import', 'tsx', STDIO_FIXTURE],
      cwd: PACKAGE_DIR,
    });
    await exercise(await connect(target, 'auto'));
  }, 30_000);
});
