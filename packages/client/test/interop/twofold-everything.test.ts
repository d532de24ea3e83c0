/**
 * `McpClient` (auto) against twofold's own everything server (apps/everything-server): over
 * stdio (its `main.ts --stdio`, run from source with tsx) and over HTTP (its
 * `createEverythingServer()` in this process). Both are modern: a broad tour of discovery,
 * every list, progress, logging, `input_required` tools and prompts answered by the handlers,
 * and `listen` announcing list changes (which also invalidate the cached lists).
 */
import { createServerHttpHandler } from '@twofold/server/http';
import { describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../../../apps/everything-server/src/server';
import type { McpClient } from '../../src/client';
import { httpServer } from '../../src/node';
import type { ChangeNotification, Progress, ServerTarget } from '../../src/types';
import { answeringHandlers, textOf } from '../support/interop-checks';
import {
  connectClient,
  INTEROP_TIMEOUT,
  trackedStdio,
  twofoldEverything,
  useInterop,
} from '../support/interop-env';
import { type InteropEndpoint, serveFetch } from '../support/interop-http';

useInterop();

interface Served {
  target: ServerTarget;
  transport: 'stream' | 'streamable-http';
  endpoint?: InteropEndpoint;
}

const servers: { name: string; start: () => Promise<Served> }[] = [
  {
    name: 'stdio',
    start: async () => ({ target: trackedStdio(twofoldEverything()).target, transport: 'stream' }),
  },
  {
    name: 'HTTP',
    start: async () => {
      const endpoint = await serveFetch(createServerHttpHandler(createEverythingServer()));
      return { target: httpServer({ url: endpoint.url }), transport: 'streamable-http', endpoint };
    },
  },
];

async function names<T>(items: AsyncIterable<T>, key: (item: T) => string): Promise<string[]> {
  const all: string[] = [];
  for await (const item of items) all.push(key(item));
  return all;
}

const INPUT_TOOLS: [tool: string, text: string][] = [
  ['test_input_required_result_elicitation', 'Hello, name-answer!'],
  ['test_input_required_result_sampling', 'Sampling answer: Paris'],
  ['test_input_required_result_list_roots', 'Client roots: file:///interop/root'],
  ['test_input_required_result_multiple_inputs', 'Paris name-answer (roots: file:///interop/root)'],
  ['test_input_required_result_multi_round', 'Favorite color: color-answer'],
  ['test_input_required_result_request_state', 'state-ok: confirmed=true'],
];

describe.each(servers)('twofold everything server over $name', ({ start }) => {
  it('is modern, and serves the tour', { timeout: INTEROP_TIMEOUT }, async () => {
    const served = await start();
    const { handlers, answered } = answeringHandlers();
    const logs: Record<string, unknown>[] = [];
    const client = await connectClient(served.target, {
      handlers,
      logLevel: 'info',
      onLog: (entry) => logs.push(entry),
    });
    expect(client.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: served.transport,
      serverKey: served.target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'twofold-everything-server' });
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28']));
    expect(discovered.capabilities).toMatchObject({ tools: { listChanged: true } });

    const tools = await names(client.iterateTools(), (tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['echo', 'add', 'test_tool_with_progress']));
    expect(tools).toEqual(expect.arrayContaining(INPUT_TOOLS.map(([tool]) => tool)));
    expect(await names(client.iterateResources(), (r) => r.uri)).toEqual(
      expect.arrayContaining(['test://static-text', 'test://static-binary']),
    );
    expect(await names(client.iterateResourceTemplates(), (t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
    ]);
    expect(await names(client.iteratePrompts(), (p) => p.name)).toEqual(
      expect.arrayContaining(['test_simple_prompt', 'test_input_required_result_prompt']),
    );

    const added = await client.callTool('add', { a: 2, b: 3 });
    expect(added.structuredContent).toEqual({ sum: 5 });
    const progress: Progress[] = [];
    const progressed = await client.callTool(
      'test_tool_with_progress',
      {},
      { onProgress: (p) => progress.push(p) },
    );
    expect(textOf(progressed)).toBe('Progress reported');
    expect(progress.map((p) => p.progress)).toEqual([0, 50, 100]);
    await client.callTool('test_tool_with_logging', {});
    expect(logs.map((entry) => entry.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);

    const read = await client.readResource('test://template/7/data');
    expect(JSON.parse(String(read.contents[0]?.text))).toMatchObject({ id: '7' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'party']);

    for (const [tool, text] of INPUT_TOOLS) {
      expect(textOf(await client.callTool(tool, {})), tool).toBe(text);
    }
    const prompt = await client.getPrompt('test_input_required_result_prompt');
    expect(textOf(prompt)).toBe('Prompt with context: context-answer');
    expect(answered.every(({ era }) => era === 'modern')).toBe(true);
    // elicitation, sampling, roots, three at once, two rounds, one with state, the prompt.
    expect(answered).toHaveLength(1 + 1 + 1 + 3 + 2 + 1 + 1);
    await client.ping();
  });

  it('listen announces list changes, and they refresh the cached lists', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const served = await start();
    const client = await connectClient(served.target);
    const before = await names(client.iterateTools(), (tool) => tool.name);
    expect(before).toContain('test_placeholder_tool');

    const stream = client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true, promptsListChanged: true });
    await client.callTool('test_trigger_tool_change', {});
    expect(await next(stream)).toEqual({ type: 'toolsListChanged' });
    await client.callTool('test_trigger_prompt_change', {});
    expect(await next(stream)).toEqual({ type: 'promptsListChanged' });
    await stream.close();

    // The lists were cached (the server allows a minute); the notifications dropped them.
    expect(await names(client.iterateTools(), (tool) => tool.name)).not.toContain(
      'test_placeholder_tool',
    );
    expect(await names(client.iteratePrompts(), (p) => p.name)).not.toContain(
      'test_placeholder_prompt',
    );
    // With no listen open nothing is announced: the cached list stays until bypassed.
    await client.callTool('test_trigger_tool_change', {});
    const cached = await names(client.iterateTools(), (tool) => tool.name);
    expect(cached).not.toContain('test_placeholder_tool');
    const fresh = await names(client.iterateTools({ cache: 'bypass' }), (tool) => tool.name);
    expect(fresh).toContain('test_placeholder_tool');
    await client.close();
    await served.endpoint?.drained();
  });

  it('pinned to legacy, the same tools ask with real requests', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const served = await start();
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(served.target, { era: 'legacy', handlers });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: served.transport,
    });
    await expectText(client, 'test_input_required_result_elicitation', 'Hello, name-answer!');
    await expectText(client, 'test_input_required_result_sampling', 'Sampling answer: Paris');
    expect(answered.map(({ kind, era }) => [kind, era])).toEqual([
      ['elicitation', 'legacy'],
      ['sampling', 'legacy'],
    ]);
    await client.close();
    await served.endpoint?.drained();
  });
});

async function next(stream: AsyncIterable<ChangeNotification>): Promise<ChangeNotification> {
  const iterator = stream[Symbol.asyncIterator]();
  const { value, done } = await iterator.next();
  if (done) throw new Error('the listen stream ended');
  return value;
}

async function expectText(client: McpClient, tool: string, text: string): Promise<void> {
  expect(textOf(await client.callTool(tool, {}))).toBe(text);
}

describe('twofold everything server over HTTP: x-mcp-header parameters', () => {
  it('a call before listing is refused (-32020) and retried with the header mirrored', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const handler = createServerHttpHandler(createEverythingServer());
    const posts: { method: string | null; region: string | null }[] = [];
    const endpoint = await serveFetch(async (request) => {
      const method = request.headers.get('mcp-method');
      if (method === 'tools/call' || method === 'tools/list') {
        posts.push({ method, region: request.headers.get('mcp-param-region') });
      }
      return handler(request);
    });
    const client = await connectClient(httpServer({ url: endpoint.url }));
    const result = await client.callTool('test_header_param', { region: 'zürich ☃' });
    expect(textOf(result)).toBe('Region: zürich ☃');
    // Non-ASCII values travel base64-encoded.
    const encoded = `=?base64?${Buffer.from('zürich ☃').toString('base64')}?=`;
    expect(posts).toEqual([
      { method: 'tools/call', region: null },
      { method: 'tools/list', region: null },
      { method: 'tools/call', region: encoded },
    ]);
    // Known now: the next call carries the header at once.
    await client.callTool('test_header_param', { region: 'eu-west' });
    expect(posts.at(-1)).toEqual({ method: 'tools/call', region: 'eu-west' });
    expect(posts).toHaveLength(4);
    await client.close();
    await endpoint.drained();
  });
});
