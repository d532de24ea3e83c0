import { MissingRequiredClientCapabilityError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequired, type RequestContext } from '../src/api';
import { OperationError } from '../src/operations/types';
import { McpServer } from '../src/server';

const info = { name: 'test-server', version: '1.0.0' };

function context(): RequestContext {
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    requestId: 1,
    clientCapabilities: {},
    signal: new AbortController().signal,
    progress: async () => {},
    log: async () => {},
    inputResponse: () => undefined,
  };
}

async function rejection(promise: Promise<unknown>): Promise<OperationError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OperationError);
  return error as OperationError;
}

describe('callTool', () => {
  const server = new McpServer(info);
  server.registerTool({
    name: 'add',
    inputSchema: z.object({ a: z.number(), b: z.number().default(1) }),
    handler: ({ a, b }) => String(a + b),
  });
  server.registerTool({
    name: 'blocks',
    handler: () => [{ type: 'text', text: 'one' }],
  });
  server.registerTool({
    name: 'fails',
    handler: () => {
      throw new Error('disk full');
    },
  });
  server.registerTool({
    name: 'needs-elicitation',
    handler: () => {
      throw new MissingRequiredClientCapabilityError({ elicitation: {} });
    },
  });
  server.registerTool({
    name: 'weather',
    outputSchema: z.object({ celsius: z.number() }),
    handler: (_args, ctx) =>
      ctx.requestId === 'wrong'
        ? { content: [], structuredContent: { celsius: 'warm' } }
        : ctx.requestId === 'missing'
          ? { content: [{ type: 'text', text: 'no data' }] }
          : { content: [], structuredContent: { celsius: 21 } },
  });
  const asks = new InputRequired({ confirm: { method: 'elicitation/create', params: {} } }, 7);
  server.registerTool({ name: 'asks', handler: () => asks });
  server.registerTool({
    name: 'asks-by-throwing',
    handler: () => {
      throw asks;
    },
  });

  it('validates arguments and passes the parsed value to the handler', async () => {
    expect(await server.operations.callTool('add', { a: 2 }, context())).toEqual({
      content: [{ type: 'text', text: '3' }],
    });
  });

  it('turns invalid arguments into an isError result listing the issues', async () => {
    const result = await server.operations.callTool('add', { a: 'two' }, context());
    expect(result).toEqual({
      content: [
        { type: 'text', text: expect.stringMatching(/^Invalid arguments for tool add: a: /) },
      ],
      isError: true,
    });
    const missing = await server.operations.callTool('add', undefined, context());
    expect(missing).toMatchObject({ isError: true });
  });

  it('expands content-array shorthand', async () => {
    expect(await server.operations.callTool('blocks', {}, context())).toEqual({
      content: [{ type: 'text', text: 'one' }],
    });
  });

  it('turns a throwing handler into an isError result with its message', async () => {
    expect(await server.operations.callTool('fails', {}, context())).toEqual({
      content: [{ type: 'text', text: 'disk full' }],
      isError: true,
    });
  });

  it('lets a protocol error thrown by a handler through', async () => {
    await expect(
      server.operations.callTool('needs-elicitation', {}, context()),
    ).rejects.toBeInstanceOf(MissingRequiredClientCapabilityError);
  });

  it('passes InputRequired through, returned or thrown', async () => {
    expect(await server.operations.callTool('asks', {}, context())).toBe(asks);
    expect(await server.operations.callTool('asks-by-throwing', {}, context())).toBe(asks);
  });

  it('checks structuredContent against the output schema and mirrors it as text', async () => {
    expect(await server.operations.callTool('weather', {}, context())).toEqual({
      content: [{ type: 'text', text: '{"celsius":21}' }],
      structuredContent: { celsius: 21 },
    });
    const wrong = await server.operations.callTool(
      'weather',
      {},
      { ...context(), requestId: 'wrong' },
    );
    expect(wrong).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/does not match its output schema: celsius: /) }],
    });
    expect(wrong).not.toHaveProperty('structuredContent');
    const missing = await server.operations.callTool(
      'weather',
      {},
      { ...context(), requestId: 'missing' },
    );
    expect(missing).toMatchObject({
      isError: true,
      content: [{ text: /returned no structuredContent/ }],
    });
  });

  it('reports an unknown or disabled tool as not found', async () => {
    expect(await rejection(server.operations.callTool('nope', {}, context()))).toMatchObject({
      kind: 'not-found',
      data: { name: 'nope' },
    });
    const hidden = server.registerTool({ name: 'hidden', handler: () => 'x' });
    hidden.disable();
    expect(await rejection(server.operations.callTool('hidden', {}, context()))).toMatchObject({
      kind: 'not-found',
    });
  });

  it('keeps wire fields a handler sets out of the result', async () => {
    const local = new McpServer(info);
    local.registerTool({
      name: 't',
      handler: () => ({ content: [], resultType: 'input_required' }),
    });
    expect(await local.operations.callTool('t', {}, context())).toEqual({ content: [] });
  });

  it('turns a result that is none into an isError result', async () => {
    const local = new McpServer(info);
    local.registerTool({ name: 't', handler: () => ({}) as never });
    expect(await local.operations.callTool('t', {}, context())).toMatchObject({ isError: true });
  });
});

describe('prompts', () => {
  const server = new McpServer(info);
  server.registerPrompt({
    name: 'review',
    description: 'Review code',
    arguments: [
      { name: 'code', required: true, description: 'The code' },
      { name: 'style', title: 'Style' },
    ],
    get: ({ code }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Review: ${code}` } }],
    }),
  });
  server.registerPrompt({
    name: 'translate',
    arguments: z.object({
      text: z.string().describe('Text to translate'),
      to: z.enum(['de', 'fr']).optional(),
    }),
    get: (args) => {
      if (args.to === undefined) throw new InputRequired({ lang: { method: 'roots/list' } });
      return { messages: [{ role: 'user', content: { type: 'text', text: args.to } }] };
    },
  });

  it('lists arguments from a list or from a schema', () => {
    expect(server.operations.listPrompts(undefined).prompts).toEqual([
      {
        name: 'review',
        description: 'Review code',
        arguments: [
          { name: 'code', required: true, description: 'The code' },
          { name: 'style', title: 'Style' },
        ],
      },
      {
        name: 'translate',
        arguments: [
          { name: 'text', description: 'Text to translate', required: true },
          { name: 'to' },
        ],
      },
    ]);
  });

  it('gets a prompt with its arguments', async () => {
    expect(await server.operations.getPrompt('review', { code: 'x()' }, context())).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Review: x()' } }],
    });
    expect(
      await server.operations.getPrompt('translate', { text: 'hi', to: 'fr' }, context()),
    ).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'fr' } }] });
  });

  it('rejects missing or invalid arguments as invalid', async () => {
    expect(await rejection(server.operations.getPrompt('review', {}, context()))).toMatchObject({
      kind: 'invalid',
      data: { issues: ['code: required'] },
    });
    expect(
      await rejection(
        server.operations.getPrompt('translate', { text: 'hi', to: 'xx' }, context()),
      ),
    ).toMatchObject({ kind: 'invalid' });
  });

  it('reports an unknown prompt as not found and passes InputRequired through', async () => {
    expect(await rejection(server.operations.getPrompt('nope', {}, context()))).toMatchObject({
      kind: 'not-found',
    });
    expect(
      await server.operations.getPrompt('translate', { text: 'hi' }, context()),
    ).toBeInstanceOf(InputRequired);
  });
});

describe('resources', () => {
  const server = new McpServer({ ...info, cache: { ttlMs: 5000, cacheScope: 'public' } });
  const text = (uri: URL, value: string) => ({ contents: [{ uri: uri.href, text: value }] });
  server.registerResource({
    uri: 'test://files/readme',
    name: 'readme',
    mimeType: 'text/plain',
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    read: (uri) => ({ ...text(uri, 'static'), ttlMs: 1, resultType: 'complete' }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://files/{name}',
    name: 'file',
    read: (uri, variables) => text(uri, `file ${String(variables.name)}`),
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://{+path}',
    name: 'anything',
    read: (uri, variables) => text(uri, `path ${String(variables.path)}`),
  });

  it('reads static resources first, with their own cache hints', async () => {
    expect(await server.operations.readResource('test://files/readme', context())).toEqual({
      contents: [{ uri: 'test://files/readme', text: 'static' }],
      cache: { ttlMs: 60_000, cacheScope: 'public' },
    });
  });

  it('then the most specific matching template, with the server cache hints', async () => {
    expect(await server.operations.readResource('test://files/a%20b', context())).toEqual({
      contents: [{ uri: 'test://files/a%20b', text: 'file a b' }],
      cache: { ttlMs: 5000, cacheScope: 'public' },
    });
    expect(await server.operations.readResource('test://other/x', context())).toMatchObject({
      contents: [{ text: 'path other/x' }],
    });
  });

  it('reports an unmatched URI as not found with the uri', async () => {
    expect(await rejection(server.operations.readResource('other://x', context()))).toMatchObject({
      kind: 'not-found',
      data: { uri: 'other://x' },
    });
    expect(await rejection(server.operations.readResource('not a uri', context()))).toMatchObject({
      kind: 'not-found',
    });
  });

  it('lets a template take over a disabled static resource', async () => {
    const local = new McpServer(info);
    const handle = local.registerResource({
      uri: 'test://files/readme',
      name: 'readme',
      read: (uri) => text(uri, 'static'),
    });
    local.registerResourceTemplate({
      uriTemplate: 'test://files/{name}',
      name: 'file',
      read: (uri) => text(uri, 'template'),
    });
    handle.disable();
    expect(await local.operations.readResource('test://files/readme', context())).toMatchObject({
      contents: [{ text: 'template' }],
      cache: { ttlMs: 0, cacheScope: 'private' },
    });
  });

  it('gives lists the server-wide cache hints', () => {
    expect(server.operations.listResources(undefined).cache).toEqual({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(new McpServer(info).operations.listTools(undefined)).toEqual({
      tools: [],
      cache: { ttlMs: 0, cacheScope: 'private' },
    });
  });
});

describe('complete', () => {
  const server = new McpServer(info);
  const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
  server.registerPrompt({
    name: 'p',
    arguments: [{ name: 'lang' }, { name: 'many' }, { name: 'plain' }],
    complete: {
      lang: (value, ctx) =>
        ['python', 'perl', 'go'].filter((lang) => lang.startsWith(value) && !ctx.arguments.skip),
      many: () => many,
    },
    get: () => ({ messages: [] }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'repo://{owner}/{name}',
    name: 'repo',
    complete: { owner: (value) => ['acme', 'apex'].filter((o) => o.startsWith(value)) },
    read: () => ({ contents: [] }),
  });
  server.registerResource({ uri: 'test://static', name: 's', read: () => ({ contents: [] }) });

  const ask = (
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    name: string,
    value: string,
    args?: Record<string, string>,
  ) =>
    server.operations.complete(
      {
        ref,
        argument: { name, value },
        ...(args === undefined ? {} : { context: { arguments: args } }),
      },
      context(),
    );

  it('completes prompt arguments with the other arguments as context', async () => {
    expect(await ask({ type: 'ref/prompt', name: 'p' }, 'lang', 'p')).toEqual({
      completion: { values: ['python', 'perl'], total: 2, hasMore: false },
    });
    expect(await ask({ type: 'ref/prompt', name: 'p' }, 'lang', 'p', { skip: '1' })).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it('returns at most 100 values, with total and hasMore', async () => {
    const { completion } = await ask({ type: 'ref/prompt', name: 'p' }, 'many', '');
    expect(completion.values).toEqual(many.slice(0, 100));
    expect(completion.total).toBe(150);
    expect(completion.hasMore).toBe(true);
  });

  it('completes template variables', async () => {
    expect(
      await ask({ type: 'ref/resource', uri: 'repo://{owner}/{name}' }, 'owner', 'ac'),
    ).toEqual({
      completion: { values: ['acme'], total: 1, hasMore: false },
    });
  });

  it('has no values for an argument without completion', async () => {
    expect(await ask({ type: 'ref/prompt', name: 'p' }, 'plain', '')).toEqual({
      completion: { values: [] },
    });
    expect(await ask({ type: 'ref/resource', uri: 'test://static' }, 'x', '')).toEqual({
      completion: { values: [] },
    });
  });

  it('reports an unknown reference as not found', async () => {
    expect(await rejection(ask({ type: 'ref/prompt', name: 'nope' }, 'a', ''))).toMatchObject({
      kind: 'not-found',
    });
    expect(
      await rejection(ask({ type: 'ref/resource', uri: 'repo://{x}' }, 'a', '')),
    ).toMatchObject({
      kind: 'not-found',
    });
  });
});
