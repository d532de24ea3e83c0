import {
  createRequest,
  type JsonRpcNotification,
  MissingRequiredClientCapabilityError,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { ServedServer } from '../src/core/served-server';
import { handleModernRequest } from '../src/modern/dispatch';
import { MODERN, modernParams } from './support/peer';
import { errorOf, resultOf } from './support/responses';
import { schemaErrors, specAvailable } from './support/spec-schema';
import { createTestServer } from './support/test-server';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

async function call(
  server: ServedServer,
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal = new AbortController().signal,
) {
  const sent: JsonRpcNotification[] = [];
  const response = await handleModernRequest(server, createRequest(7, method, params), {
    signal,
    notify: async (n) => {
      sent.push(n);
    },
  });
  return { response, sent };
}

describe('modern dispatch: errors', () => {
  const server = createTestServer();

  it.each(['server/discover', 'tools/list', 'tools/call', 'ping', 'no/such'])(
    'answers -32022 with supported and requested for %s at an unknown version',
    async (method) => {
      const params = modernParams(
        { name: 'echo' },
        { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
      );
      const error = errorOf((await call(server, method, params)).response);
      expect(error.code).toBe(-32022);
      expect(error.data).toEqual({
        supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2024-11-05'],
        requested: '1900-01-01',
      });
    },
  );

  it('answers -32022 for a legacy version named in _meta and for a version not offered', async () => {
    const legacyInMeta = modernParams(
      {},
      { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
    );
    expect(errorOf((await call(server, 'tools/list', legacyInMeta)).response).code).toBe(-32022);
    const legacyOnly = createTestServer({ versions: { modern: [] } });
    const error = errorOf((await call(legacyOnly, 'tools/list', modernParams())).response);
    expect(error).toMatchObject({
      code: -32022,
      data: { supported: ['2025-11-25', '2025-06-18', '2024-11-05'], requested: MODERN },
    });
  });

  it('answers -32602 for a request without _meta or with an incomplete one', async () => {
    expect(errorOf((await call(server, 'tools/list', undefined)).response).code).toBe(-32602);
    expect(errorOf((await call(server, 'tools/list', {})).response).code).toBe(-32602);
    const noCaps = { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } };
    expect(errorOf((await call(server, 'tools/list', noCaps)).response).code).toBe(-32602);
  });

  it.each([
    'ping',
    'initialize',
    'logging/setLevel',
    'resources/subscribe',
    'no/such',
    'notifications/progress',
  ])('answers -32601 for %s', async (method) => {
    expect(errorOf((await call(server, method, modernParams())).response).code).toBe(-32601);
  });

  it('answers -32601 for a feature whose capability the server does not advertise', async () => {
    const bare = createTestServer();
    bare.operations.capabilities = () => ({ tools: {} });
    expect(errorOf((await call(bare, 'prompts/list', modernParams())).response).code).toBe(-32601);
    expect(errorOf((await call(bare, 'completion/complete', modernParams())).response).code).toBe(
      -32601,
    );
    expect('result' in (await call(bare, 'tools/list', modernParams())).response).toBe(true);
  });

  it('answers -32602 for wrong param types, unknown names, bad cursors and log levels', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['tools/call', modernParams({ name: 42 })],
      ['tools/call', modernParams({ name: 'nope' })],
      ['prompts/get', modernParams({ name: 'nope' })],
      ['prompts/get', modernParams({ name: 'greet' })],
      ['resources/read', modernParams({ uri: 'test://missing' })],
      ['tools/list', modernParams({ cursor: 'not-a-cursor' })],
      ['tools/list', modernParams({}, { 'io.modelcontextprotocol/logLevel': 'loud' })],
    ];
    for (const [method, params] of cases) {
      expect(errorOf((await call(server, method, params)).response).code, method).toBe(-32602);
    }
    const missing = errorOf(
      (await call(server, 'resources/read', modernParams({ uri: 'test://missing' }))).response,
    );
    expect(missing.data).toEqual({ uri: 'test://missing' });
  });

  it('turns a tool failure into an isError result and hides internal details of other failures', async () => {
    const boom = resultOf(
      (await call(server, 'tools/call', modernParams({ name: 'boom' }))).response,
    );
    expect(boom).toMatchObject({ isError: true, resultType: 'complete' });
    const failing = createTestServer();
    failing.operations.listTools = () => {
      throw new Error('database password is hunter2');
    };
    const error = errorOf((await call(failing, 'tools/list', modernParams())).response);
    expect(error).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('propagates -32021 from a handler needing an undeclared client capability', async () => {
    const needy = createTestServer();
    needy.operations.callTool = async () => {
      throw new MissingRequiredClientCapabilityError({ sampling: {} });
    };
    const error = errorOf(
      (await call(needy, 'tools/call', modernParams({ name: 'echo' }))).response,
    );
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('asks for input the request can give (input_required), refuses input it cannot (-32021)', async () => {
    const undeclared = errorOf(
      (await call(server, 'tools/call', modernParams({ name: 'ask' }))).response,
    );
    expect(undeclared).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const declared = resultOf(
      (await call(server, 'tools/call', modernParams({ name: 'ask' }, {}, { elicitation: {} })))
        .response,
    );
    expect(declared).toMatchObject({ resultType: 'input_required' });
    expect(typeof declared.requestState).toBe('string');
  });
});

describe('modern dispatch: results', () => {
  const server = createTestServer();

  it('answers server/discover with versions, capabilities, instructions, identity and cache hints', async () => {
    const result = resultOf((await call(server, 'server/discover', modernParams())).response);
    expect(result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2024-11-05'],
      capabilities: server.operations.capabilities(),
      instructions: 'Use echo to echo.',
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: { [SERVER_INFO_KEY]: { name: 'test-server', version: '1.0.0' } },
    });
  });

  const requests: [string, Record<string, unknown>, string, boolean][] = [
    ['server/discover', {}, 'DiscoverResult', true],
    ['tools/list', {}, 'ListToolsResult', true],
    ['tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'CallToolResult', false],
    ['prompts/list', {}, 'ListPromptsResult', true],
    ['prompts/get', { name: 'greet', arguments: { name: 'Ada' } }, 'GetPromptResult', false],
    ['resources/list', {}, 'ListResourcesResult', true],
    ['resources/templates/list', {}, 'ListResourceTemplatesResult', true],
    ['resources/read', { uri: 'test://items/7' }, 'ReadResourceResult', true],
    [
      'completion/complete',
      { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'a' } },
      'CompleteResult',
      false,
    ],
  ];
  it.each(requests)(
    '%s: resultType, serverInfo, cache hints where cacheable, valid per schema.json',
    async (method, extra, definition, cacheable) => {
      const result = resultOf((await call(server, method, modernParams(extra))).response);
      expect(result.resultType).toBe('complete');
      expect((result._meta as Record<string, unknown>)[SERVER_INFO_KEY]).toEqual(server.serverInfo);
      if (cacheable) expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
      else expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cache');
      if (specAvailable) expect(schemaErrors(MODERN, definition, result)).toEqual([]);
    },
  );

  it.runIf(specAvailable)('the schema check rejects a result without its cache hints', () => {
    expect(
      schemaErrors(MODERN, 'ListToolsResult', { resultType: 'complete', tools: [] }),
    ).not.toEqual([]);
  });

  it('paginates with opaque cursors that another server instance accepts', async () => {
    const small = createTestServer({ pageSize: 2 });
    const first = resultOf((await call(small, 'tools/list', modernParams())).response);
    expect((first.tools as { name: string }[]).map((t) => t.name)).toEqual(['ask', 'boom']);
    const other = createTestServer({ pageSize: 2 });
    const second = resultOf(
      (await call(other, 'tools/list', modernParams({ cursor: first.nextCursor }))).response,
    );
    expect((second.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo', 'hang']);
    expect(second).not.toHaveProperty('nextCursor');
  });
});

describe('modern dispatch: progress, logging, cancellation', () => {
  const server = createTestServer();
  const echo = { name: 'echo', arguments: { text: 'hi' } };

  it('sends no notification without a progress token or log level', async () => {
    const { sent } = await call(server, 'tools/call', modernParams(echo));
    expect(sent).toEqual([]);
  });

  it('sends strictly increasing progress for the request token only', async () => {
    const { sent } = await call(server, 'tools/call', modernParams(echo, { progressToken: 'p1' }));
    expect(sent.map((n) => n.params)).toEqual([
      { progressToken: 'p1', progress: 1, total: 2, message: 'half' },
      { progressToken: 'p1', progress: 2, total: 2 },
    ]);
    expect(sent.every((n) => n.method === 'notifications/progress')).toBe(true);
  });

  it('sends logs at or above the requested level, before the response', async () => {
    const info = await call(
      server,
      'tools/call',
      modernParams(echo, { 'io.modelcontextprotocol/logLevel': 'info' }),
    );
    expect(info.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: { echo: 'hi' }, logger: 'echo' },
      },
    ]);
    const debug = await call(
      server,
      'tools/call',
      modernParams(echo, { 'io.modelcontextprotocol/logLevel': 'debug' }),
    );
    expect(debug.sent.map((n) => n.params?.level)).toEqual(['info', 'debug']);
    const error = await call(
      server,
      'tools/call',
      modernParams(echo, { 'io.modelcontextprotocol/logLevel': 'error' }),
    );
    expect(error.sent).toEqual([]);
    if (specAvailable) {
      for (const n of [...info.sent, ...debug.sent])
        expect(schemaErrors(MODERN, 'LoggingMessageNotification', n)).toEqual([]);
    }
  });

  it('hands the cancellation signal to the handler', async () => {
    const controller = new AbortController();
    const pending = call(server, 'tools/call', modernParams({ name: 'hang' }), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const { response } = await pending;
    expect(server.operations.aborted).toContain('7');
    expect(resultOf(response)).toMatchObject({ resultType: 'complete' });
  });

  it('answers 1,000 concurrent requests, each exactly once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        handleModernRequest(
          server,
          createRequest(
            i,
            'tools/call',
            modernParams({ name: 'echo', arguments: { text: `m${i}` } }),
          ),
          {
            signal: new AbortController().signal,
            notify: async () => undefined,
          },
        ),
      ),
    );
    answers.forEach((response, i) => {
      expect(response.id).toBe(i);
      expect(resultOf(response).content).toEqual([{ type: 'text', text: `m${i}` }]);
    });
  });
});
