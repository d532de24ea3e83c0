/**
 * `McpClient` (auto) against the reference `@modelcontextprotocol/server-everything` on stdio
 * (its installed bin, no npx): a legacy server on SDK 1.x. Lists, calls with progress,
 * sampling and elicitation requests answered by the handlers, and a resource subscription
 * through `listen`.
 */
import { ProtocolError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client';
import type { ChangeNotification, Progress } from '../../src/types';
import { answeringHandlers, textOf } from '../support/interop-checks';
import {
  connectClient,
  INTEROP_TIMEOUT,
  referenceEverything,
  trackedStdio,
  useInterop,
} from '../support/interop-env';

useInterop();

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function connectEverything(options: Parameters<typeof connectClient>[1] = {}) {
  const server = trackedStdio(referenceEverything());
  const client = await connectClient(server.target, options);
  return { server, client };
}

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('is detected as legacy on one process, and lists everything', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const { server, client } = await connectEverything();
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'stream',
      serverKey: server.target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'mcp-servers/everything' });
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });
    expect(server.opened).toHaveLength(1);

    const tools = (await collect(client.iterateTools())).map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']),
    );
    // Without input handlers the client declares no capability: no such tools.
    expect(tools).not.toContain('trigger-sampling-request');
    const resources = await collect(client.iterateResources());
    expect(resources.length).toBeGreaterThan(0);
    const templates = (await collect(client.iterateResourceTemplates())).map((t) => t.uriTemplate);
    expect(templates).toContain('demo://resource/dynamic/text/{resourceId}');
    const prompts = (await collect(client.iteratePrompts())).map((prompt) => prompt.name);
    expect(prompts).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));

    const first = resources[0]?.uri as string;
    const read = await client.readResource(first);
    expect(read.contents[0]).toMatchObject({ uri: first });
    const text = await client.readResource('demo://resource/dynamic/text/3');
    expect(text.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/3' });
    const prompt = await client.getPrompt('args-prompt', { city: 'Paris' });
    expect(textOf(prompt)).toContain('Paris');
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(completion.completion.values).toContain('Engineering');
    await client.ping();
  });

  it('calls tools, with progress and structured content', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const { client } = await connectEverything();
    expect(textOf(await client.callTool('echo', { message: 'héllo 🌍' }))).toBe('Echo: héllo 🌍');
    expect(textOf(await client.callTool('get-sum', { a: 2, b: 3 }))).toContain('5');

    const progress: Progress[] = [];
    const done = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.03, steps: 3 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(textOf(done)).toContain('Long running operation completed');
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);

    // Listed first, so the client checks structuredContent against the outputSchema.
    await collect(client.iterateTools());
    const weather = await client.callTool('get-structured-content', { location: 'New York' });
    expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('answers its sampling and elicitation requests with the handlers', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const { handlers, answered } = answeringHandlers();
    // No roots handler: the server would otherwise ask for roots on a timer after connecting.
    const { client } = await connectEverything({
      handlers: { elicitation: handlers.elicitation, sampling: handlers.sampling },
    });
    const tools = (await collect(client.iterateTools())).map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request']),
    );

    const sampled = await client.callTool('trigger-sampling-request', { prompt: 'capital?' });
    expect(textOf(sampled)).toContain('Paris');
    const elicited = await client.callTool('trigger-elicitation-request', {});
    expect(textOf(elicited)).toContain('Name: name-answer');
    expect(answered.map(({ kind, era }) => [kind, era])).toEqual([
      ['sampling', 'legacy'],
      ['elicitation', 'legacy'],
    ]);
    expect(answered[0]?.params).toMatchObject({ maxTokens: 100 });
  });

  it('URL elicitation: the request reaches the handler; -32042 reaches the caller', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const { handlers, answered } = answeringHandlers();
    const { client } = await connectEverything({ handlers: { elicitation: handlers.elicitation } });
    const url = 'https://example.com/consent';
    const done = await client.callTool('trigger-url-elicitation', { url });
    expect(textOf(done)).toContain('User completed the URL elicitation flow');
    expect(answered).toEqual([
      expect.objectContaining({
        era: 'legacy',
        params: expect.objectContaining({ mode: 'url', url }),
      }),
    ]);
    // The 2025-11-25 error path is not turned into handler calls: the caller gets the error,
    // with the elicitations the server needs.
    const refused = await client
      .callTool('trigger-url-elicitation', { url, errorPath: true })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({
      code: -32042,
      data: { elicitations: [expect.objectContaining({ mode: 'url' })] },
    });
    expect(answered).toHaveLength(1);
  });

  it('delivers resource updates to listen(), and unsubscribes on close', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const notifications: string[] = [];
    const { client } = await connectEverything({
      onNotification: (method) => notifications.push(method),
    });
    const uri = 'demo://resource/dynamic/text/1';
    const stream = client.listen({ resourceSubscriptions: [uri], toolsListChanged: true });
    expect(await stream.acknowledged).toEqual({
      resourceSubscriptions: [uri],
      toolsListChanged: true,
    });
    // The toggle sends one update at once for every subscribed URI, then one every 5 s.
    await toggleUpdates(client, 'Started');
    const changes: ChangeNotification[] = [];
    for await (const change of stream) {
      changes.push(change);
      if (change.type === 'resourceUpdated') break;
    }
    // The tools it registers once it knows the client may also be announced, at any time.
    const [last, ...others] = [...changes].reverse();
    expect(last).toEqual({ type: 'resourceUpdated', uri });
    for (const other of others) expect(other).toEqual({ type: 'toolsListChanged' });
    await toggleUpdates(client, 'Stopped');
    // `break` closed the stream: the client unsubscribed (the server logs both requests).
    await client.ping();
    const logged = notifications.filter((method) => method === 'notifications/message');
    expect(logged).toHaveLength(2);
  });
});

async function toggleUpdates(client: McpClient, expected: string): Promise<void> {
  const result = await client.callTool('toggle-subscriber-updates', {});
  expect(textOf(result)).toContain(expected);
}
