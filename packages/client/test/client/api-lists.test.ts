/**
 * McpClient against a real twofold server, in both eras: discovery, lists (one page and all
 * pages), reads, prompts, completion, ping and close.
 */
import {
  ErrorCode,
  LATEST_LEGACY_VERSION,
  LATEST_VERSION,
  LocalError,
  LocalErrorCode,
  META_KEYS,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import {
  connectClient,
  ERAS,
  type Era,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';
import { buildApiServer, PROMPT_NAMES, RESOURCE_URIS, TOOL_NAMES } from '../support/client-server';

useClientCleanups();

async function setup(era: Era, pageSize?: number) {
  const served = serveTarget(buildApiServer(pageSize === undefined ? {} : { pageSize }));
  const connected = await connectClient(served.target, { era });
  return { ...served, ...connected };
}

describe.each(ERAS)('McpClient API (%s)', (era) => {
  it('connects in the pinned era and reports the server facts', async () => {
    const { client } = await setup(era);
    expect(client.era).toBe(era);
    expect(client.protocolVersion).toBe(era === 'modern' ? LATEST_VERSION : LATEST_LEGACY_VERSION);
    expect(client.verdict).toMatchObject({ era, serverKey: 'memory:twofold', transport: 'stream' });
    expect(client.serverInfo).toMatchObject({ name: 'api-server', version: '2.0.0' });
    expect(client.instructions).toBe('test instructions');
    expect(client.serverCapabilities.tools).toBeDefined();
    expect(client.closed).toBe(false);
  });

  it('discovers (legacy: built from initialize)', async () => {
    const { client, requests } = await setup(era);
    const discover = await client.discover();
    expect(discover.capabilities).toEqual(client.serverCapabilities);
    expect(discover.instructions).toBe('test instructions');
    expect(discover._meta?.[META_KEYS.serverInfo]).toMatchObject({ name: 'api-server' });
    if (era === 'modern') {
      expect(discover.supportedVersions).toContain(LATEST_VERSION);
    } else {
      expect(discover.supportedVersions).toEqual([LATEST_LEGACY_VERSION]);
      expect(requests('server/discover')).toHaveLength(0);
    }
  });

  it('lists one page at a time and follows cursors', async () => {
    const { client } = await setup(era, 2);
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(TOOL_NAMES.slice(0, 2));
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((t) => t.name)).toEqual(TOOL_NAMES.slice(2, 4));
    expect(second.nextCursor).toBeUndefined();

    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual(RESOURCE_URIS.slice(0, 2));
    expect(resources.nextCursor).toBeDefined();
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates).toHaveLength(2);
    expect(templates.nextCursor).toBeDefined();
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(PROMPT_NAMES.slice(0, 2));
    expect(prompts.nextCursor).toBeDefined();
  });

  it('iterates every page of every list', async () => {
    const { client, requests } = await setup(era, 2);
    const names = async <T>(items: AsyncIterable<T>, pick: (item: T) => string) => {
      const out: string[] = [];
      for await (const item of items) out.push(pick(item));
      return out;
    };
    expect(await names(client.iterateTools(), (t) => t.name)).toEqual(TOOL_NAMES);
    expect(requests('tools/list')).toHaveLength(2);
    expect(await names(client.iterateResources(), (r) => r.uri)).toEqual(RESOURCE_URIS);
    expect(requests('resources/list')).toHaveLength(2);
    expect(await names(client.iterateResourceTemplates(), (t) => t.uriTemplate)).toEqual([
      'test://items/{id}',
      'test://users/{name}',
      'test://zones/{zone}',
    ]);
    expect(await names(client.iteratePrompts(), (p) => p.name)).toEqual(PROMPT_NAMES);
    expect(requests('prompts/list')).toHaveLength(2);
  });

  it('stops iterating at maxPages with LIMIT_EXCEEDED', async () => {
    const { client } = await setup(era, 1);
    const error = await rejectionOf(
      (async () => {
        for await (const _ of client.iterateTools({ maxPages: 2 })) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe(LocalErrorCode.LimitExceeded);
  });

  it('calls tools, reads resources, gets prompts and completes arguments', async () => {
    const { client } = await setup(era);
    const call = await client.callTool('echo', { text: 'hi' });
    expect(call.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    const add = await client.callTool('add', { a: 2, b: 3 });
    expect(add.structuredContent).toEqual({ sum: 5 });

    const read = await client.readResource('test://two');
    expect(read.contents).toEqual([{ uri: 'test://two', text: 'content of test://two' }]);
    const item = await client.readResource('test://items/pear');
    expect(item.contents[0]).toMatchObject({ uri: 'test://items/pear', text: 'item pear' });

    const prompt = await client.getPrompt('greet', { who: 'alice' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'greet alice' } },
    ]);

    const prompted = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'al' },
    });
    expect(prompted.completion.values).toEqual(['alice', 'albert']);
    const templated = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: 'ap' },
    });
    expect(templated.completion.values).toEqual(['apple', 'apricot']);
  });

  it('reports protocol errors as ProtocolError and keeps working', async () => {
    const { client } = await setup(era);
    const error = await rejectionOf(client.getPrompt('missing'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ErrorCode.InvalidParams);
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('pings, then closes (idempotently); calls after close reject CONNECTION_CLOSED', async () => {
    const { client, requests } = await setup(era);
    await client.ping();
    expect(requests(era === 'modern' ? 'server/discover' : 'ping').length).toBeGreaterThan(0);
    await client.close();
    await client.close();
    expect(client.closed).toBe(true);
    const error = await rejectionOf(client.listTools());
    expect((error as LocalError).code).toBe(LocalErrorCode.ConnectionClosed);
  });
});
