import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Change, OperationError } from '../src/operations/types';
import { McpServer } from '../src/server';

const info = { name: 'test-server', version: '1.0.0' };
const noop = () => 'ok';
const readNothing = () => ({ contents: [] });

function collectChanges(server: McpServer): Change[] {
  const changes: Change[] = [];
  server.operations.onChange((change) => changes.push(change));
  return changes;
}

describe('registration rules', () => {
  it.each(['', 'a'.repeat(129), 'has space', 'slash/name', 'ümlaut', 42])(
    'rejects the tool name %j',
    (name) => {
      const server = new McpServer(info);
      expect(() => server.registerTool({ name: name as string, handler: noop })).toThrow(TypeError);
    },
  );

  it('accepts names of 1-128 characters of [A-Za-z0-9_.-]', () => {
    const server = new McpServer(info);
    for (const name of ['a', 'a'.repeat(128), 'get_weather.v2-beta', 'UPPER']) {
      server.registerTool({ name, handler: noop });
    }
    expect(server.operations.listTools(undefined).tools).toHaveLength(4);
  });

  it('rejects duplicates of names, URIs and templates', () => {
    const server = new McpServer(info);
    server.registerTool({ name: 'echo', handler: noop });
    expect(() => server.registerTool({ name: 'echo', handler: noop })).toThrow(
      'Tool "echo" is already registered',
    );
    server.registerPrompt({ name: 'p', get: () => ({ messages: [] }) });
    expect(() => server.registerPrompt({ name: 'p', get: () => ({ messages: [] }) })).toThrow(
      /already registered/,
    );
    server.registerResource({ uri: 'test://a', name: 'a', read: readNothing });
    expect(() =>
      server.registerResource({ uri: 'test://a', name: 'b', read: readNothing }),
    ).toThrow(/already registered/);
    server.registerResourceTemplate({ uriTemplate: 'test://{x}', name: 't', read: readNothing });
    expect(() =>
      server.registerResourceTemplate({ uriTemplate: 'test://{x}', name: 'u', read: readNothing }),
    ).toThrow(/already registered/);
  });

  it('frees the name of a removed tool', () => {
    const server = new McpServer(info);
    server.registerTool({ name: 'echo', handler: noop }).remove();
    expect(() => server.registerTool({ name: 'echo', handler: noop })).not.toThrow();
  });

  it('checks the rest of a definition up front', () => {
    const server = new McpServer(info);
    expect(() =>
      server.registerTool({ name: 't', handler: noop, icons: [{ src: 'http://x/icon.png' }] }),
    ).toThrow(/must be https: or data:/);
    expect(() =>
      server.registerResource({ uri: 'not a uri', name: 'x', read: readNothing }),
    ).toThrow(/is not a URI/);
    expect(() =>
      server.registerResource({
        uri: 'test://a',
        name: 'a',
        read: readNothing,
        cache: { ttlMs: -1, cacheScope: 'public' },
      }),
    ).toThrow(/ttlMs/);
    expect(() =>
      server.registerResourceTemplate({ uriTemplate: 'test://{x', name: 't', read: readNothing }),
    ).toThrow(/unbalanced/);
    expect(() =>
      server.registerPrompt({
        name: 'p',
        get: () => ({ messages: [] }),
        complete: { a: 1 as never },
      }),
    ).toThrow(/must be a function/);
  });

  it('validates x-mcp-header annotations and exposes the header params', () => {
    const server = new McpServer(info);
    server.registerTool({
      name: 'deploy',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'number' } },
      },
      handler: noop,
    });
    expect(server.headerParams('deploy')).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
    ]);
    expect(server.headerParams('unknown')).toBeUndefined();
    expect(() =>
      server.registerTool({
        name: 'bad',
        inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
        handler: noop,
      }),
    ).toThrow(/invalid x-mcp-header annotations: .*"number" is not permitted/);
  });

  it('checks server options', () => {
    expect(() => new McpServer({ ...info, pageSize: 0 })).toThrow(/pageSize/);
    expect(() => new McpServer({ ...info, name: '' })).toThrow(/name/);
    expect(() => new McpServer({ ...info, versions: { modern: ['1999-01-01' as never] } })).toThrow(
      /not a modern protocol version/,
    );
    expect(() => new McpServer({ ...info, versions: { modern: [], legacy: [] } })).toThrow(
      /at least one version/,
    );
  });

  it('describes itself', () => {
    const server = new McpServer({
      ...info,
      title: 'Test',
      instructions: 'Use echo.',
      versions: { legacy: ['2024-11-05', '2025-11-25'] },
    });
    expect(server.serverInfo).toEqual({ name: 'test-server', version: '1.0.0', title: 'Test' });
    expect(server.instructions).toBe('Use echo.');
    expect(server.offeredVersions).toEqual({
      modern: ['2026-07-28'],
      legacy: ['2025-11-25', '2024-11-05'],
    });
  });
});

describe('deterministic lists and cursors', () => {
  const names = Array.from({ length: 25 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);

  function serverWith(order: readonly string[]) {
    const server = new McpServer({ ...info, pageSize: 10 });
    for (const name of order) server.registerTool({ name, handler: noop });
    return server;
  }

  function allPages(servers: McpServer[]): string[] {
    const seen: string[] = [];
    let cursor: string | undefined;
    let turn = 0;
    do {
      // Each page comes from the next instance, as behind a load balancer.
      const page = (servers[turn++ % servers.length] as McpServer).operations.listTools(cursor);
      seen.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return seen;
  }

  it('orders by name whatever the registration order, across instances', () => {
    const forward = serverWith(names);
    const backward = serverWith([...names].reverse());
    expect(allPages([forward])).toEqual(names);
    expect(allPages([backward, forward])).toEqual(names);
    expect(forward.operations.listTools(undefined)).toEqual(
      backward.operations.listTools(undefined),
    );
  });

  it('compares code units, not locale order', () => {
    const server = serverWith(['b', 'B', 'a', 'A', '_', '-', '9']);
    expect(server.operations.listTools(undefined).tools.map((tool) => tool.name)).toEqual([
      '-',
      '9',
      'A',
      'B',
      '_',
      'a',
      'b',
    ]);
  });

  it('continues after the cursor position even when that item was removed', () => {
    const server = new McpServer({ ...info, pageSize: 2 });
    const handles = ['a', 'b', 'c', 'd'].map((name) =>
      server.registerTool({ name, handler: noop }),
    );
    const first = server.operations.listTools(undefined);
    expect(first.tools.map((tool) => tool.name)).toEqual(['a', 'b']);
    handles[1]?.remove();
    const second = server.operations.listTools(first.nextCursor);
    expect(second.tools.map((tool) => tool.name)).toEqual(['c', 'd']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('ends without a cursor when the last page is exactly full', () => {
    const server = serverWith(names.slice(0, 20));
    const second = server.operations.listTools(server.operations.listTools(undefined).nextCursor);
    expect(second.tools).toHaveLength(10);
    expect(second.nextCursor).toBeUndefined();
  });

  it('rejects tampered cursors and cursors of another list', () => {
    const server = serverWith(names);
    server.registerPrompt({ name: 'p', get: () => ({ messages: [] }) });
    const cursor = server.operations.listTools(undefined).nextCursor as string;
    for (const bad of ['', 'garbage!', `${cursor}x`, cursor.slice(1), 'AAAA']) {
      expect(() => server.operations.listTools(bad)).toThrow(OperationError);
    }
    try {
      server.operations.listPrompts(cursor);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'invalid' });
    }
  });

  it('orders resources by URI and templates by template text', () => {
    const server = new McpServer(info);
    for (const uri of ['test://c', 'test://a', 'test://b']) {
      server.registerResource({ uri, name: 'same name', read: readNothing });
    }
    for (const uriTemplate of ['test://z/{x}', 'test://m/{x}']) {
      server.registerResourceTemplate({ uriTemplate, name: 't', read: readNothing });
    }
    const { resources } = server.operations.listResources(undefined);
    expect(resources.map((resource) => resource.uri)).toEqual(['test://a', 'test://b', 'test://c']);
    const { resourceTemplates } = server.operations.listResourceTemplates(undefined);
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://m/{x}', 'test://z/{x}']);
  });

  it('converts schemas once: every list shares the same frozen wire objects', () => {
    const server = new McpServer(info);
    server.registerTool({ name: 'z', inputSchema: z.object({ a: z.string() }), handler: noop });
    const first = server.operations.listTools(undefined).tools[0];
    const second = server.operations.listTools(undefined).tools[0];
    expect(first).toBe(second);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first?.inputSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });
});

describe('run-time changes', () => {
  it('emits list changes on add, disable, enable and remove, and hides disabled items', () => {
    const server = new McpServer(info);
    const changes = collectChanges(server);
    const tool = server.registerTool({ name: 'echo', handler: noop });
    expect(changes).toEqual([{ kind: 'tools' }]);
    tool.disable();
    tool.disable();
    expect(tool.enabled).toBe(false);
    expect(server.operations.listTools(undefined).tools).toEqual([]);
    expect(server.headerParams('echo')).toBeUndefined();
    tool.enable();
    expect(server.operations.listTools(undefined).tools).toHaveLength(1);
    tool.remove();
    tool.remove();
    tool.enable();
    expect(tool.enabled).toBe(false);
    expect(server.operations.listTools(undefined).tools).toEqual([]);
    expect(changes).toEqual([
      { kind: 'tools' },
      { kind: 'tools' },
      { kind: 'tools' },
      { kind: 'tools' },
    ]);
  });

  it('names the list that changed and announces resource updates', () => {
    const server = new McpServer(info);
    const changes = collectChanges(server);
    server.registerPrompt({ name: 'p', get: () => ({ messages: [] }) }).disable();
    server.registerResource({ uri: 'test://a', name: 'a', read: readNothing });
    server
      .registerResourceTemplate({ uriTemplate: 'test://{x}', name: 't', read: readNothing })
      .remove();
    server.notifyResourceUpdated('test://a');
    expect(changes).toEqual([
      { kind: 'prompts' },
      { kind: 'prompts' },
      { kind: 'resources' },
      { kind: 'resources' },
      { kind: 'resources' },
      { kind: 'resource-updated', uri: 'test://a' },
    ]);
  });

  it('stops telling a listener that unsubscribed', () => {
    const server = new McpServer(info);
    const seen: Change[] = [];
    const unsubscribe = server.operations.onChange((change) => seen.push(change));
    server.registerTool({ name: 'a', handler: noop });
    unsubscribe();
    server.registerTool({ name: 'b', handler: noop });
    expect(seen).toHaveLength(1);
  });
});

describe('capabilities', () => {
  it('declares what is registered, with listChanged, subscribe and completions', () => {
    const server = new McpServer(info);
    expect(server.operations.capabilities()).toEqual({ logging: {} });
    server.registerTool({ name: 't', handler: noop });
    server.registerResourceTemplate({ uriTemplate: 'test://{x}', name: 't', read: readNothing });
    expect(server.operations.capabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    const prompt = server.registerPrompt({
      name: 'p',
      arguments: [{ name: 'a' }],
      complete: { a: () => [] },
      get: () => ({ messages: [] }),
    });
    prompt.disable();
    expect(server.operations.capabilities()).toMatchObject({
      completions: {},
      prompts: { listChanged: true },
    });
    prompt.remove();
    expect(server.operations.capabilities()).not.toHaveProperty('completions');
  });
});
