/**
 * Faulty or demanding modern servers at the MCP level, scripted over an in-memory pair, through
 * `McpClient`: invalid `x-mcp-header` annotations, endless `input_required`, -32020 header
 * mismatch, a mid-session -32022. Every call settles, and the client closes afterwards.
 */
import {
  ErrorCode,
  LATEST_VERSION,
  LocalError,
  LocalErrorCode,
  META_KEYS,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client';
import type { McpClientOptions } from '../../src/types';
import { connectClient, rejectionOf, useClientCleanups } from '../support/client-harness';
import { type Reply, type ScriptedServer, scriptedTarget } from '../support/client-peer';

useClientCleanups();

async function setup(script: Record<string, Reply>, options: Partial<McpClientOptions> = {}) {
  const scripted = scriptedTarget(script);
  const connected = await connectClient(scripted.target, { era: 'modern', ...options });
  const peer = scripted.peers[0] as ScriptedServer;
  return { ...connected, peer };
}

function expectLocal(error: Error, code: LocalErrorCode): void {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(code);
}

async function closesCleanly(client: McpClient): Promise<void> {
  await client.close();
  expect(client.closed).toBe(true);
}

const TEXT = (text: string) => ({ content: [{ type: 'text', text }] });

const GOOD_TOOL = {
  name: 'weather',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
  },
};
const PLAIN_TOOL = { name: 'plain', inputSchema: { type: 'object' } };
const BAD_TOOL = {
  name: 'broken',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'not a token!' } },
  },
};

const versionOf = (params: Record<string, unknown> | undefined) =>
  (params?._meta as Record<string, unknown> | undefined)?.[META_KEYS.protocolVersion];

describe('McpClient with a demanding server', () => {
  it('leaves out tools with invalid x-mcp-header annotations, with a warning', async () => {
    const { client, warnings } = await setup({
      'tools/list': (request, p) =>
        p.result(request.id, { tools: [GOOD_TOOL, BAD_TOOL, PLAIN_TOOL] }),
    });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['weather', 'plain']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      code: 'invalid-tool-header-annotations',
      details: { tool: 'broken', errors: [expect.any(String)] },
    });
    const iterated: string[] = [];
    for await (const tool of client.iterateTools()) iterated.push(tool.name);
    expect(iterated).toEqual(['weather', 'plain']);
    await closesCleanly(client);
  });

  it('gives up on endless input_required with TOO_MANY_ROUNDS after maxInputRounds', async () => {
    let round = 0;
    const elicited: unknown[] = [];
    const { client, peer } = await setup(
      {
        'tools/call': (request, p) =>
          p.result(request.id, {
            resultType: 'input_required',
            inputRequests: {
              again: {
                method: 'elicitation/create',
                params: { message: 'again?', requestedSchema: { type: 'object', properties: {} } },
              },
            },
            requestState: `state-${round++}`,
          }),
      },
      {
        maxInputRounds: 3,
        handlers: {
          elicitation: async (params) => {
            elicited.push(params);
            return { action: 'accept', content: {} };
          },
        },
      },
    );
    const error = await rejectionOf(client.callTool('loop'));
    expectLocal(error, LocalErrorCode.TooManyRounds);
    const calls = peer.requestsOf('tools/call');
    // The first call and three retries, each echoing the previous requestState.
    expect(calls).toHaveLength(4);
    expect(calls.map((c) => c.params?.requestState)).toEqual([
      undefined,
      'state-0',
      'state-1',
      'state-2',
    ]);
    expect(calls[1]?.params?.inputResponses).toEqual({ again: { action: 'accept', content: {} } });
    expect(elicited).toHaveLength(3);
    await closesCleanly(client);
  });

  it('refreshes the tool list once and retries once after -32020', async () => {
    let calls = 0;
    const { client, peer } = await setup({
      'tools/list': (request, p) =>
        p.result(request.id, { tools: [GOOD_TOOL], ttlMs: 60_000, cacheScope: 'public' }),
      'tools/call': (request, p) =>
        calls++ === 0
          ? p.error(request.id, ErrorCode.HeaderMismatch, 'Mcp-Param-Region is missing')
          : p.result(request.id, TEXT('sunny')),
    });
    await client.listTools();
    const result = await client.callTool('weather', { region: 'north' });
    expect(result.content).toEqual([{ type: 'text', text: 'sunny' }]);
    // The list was cached: the refresh went past the cache to the server.
    expect(peer.requestsOf('tools/list')).toHaveLength(2);
    expect(peer.requestsOf('tools/call')).toHaveLength(2);
    expect(peer.requestsOf('tools/call')[1]?.params).toMatchObject({
      name: 'weather',
      arguments: { region: 'north' },
    });
    await closesCleanly(client);
  });

  it('reports a second -32020 to the caller without looping', async () => {
    const { client, peer } = await setup({
      'tools/list': (request, p) => p.result(request.id, { tools: [GOOD_TOOL] }),
      'tools/call': (request, p) =>
        p.error(request.id, ErrorCode.HeaderMismatch, 'Mcp-Param-Region disagrees'),
    });
    const error = await rejectionOf(client.callTool('weather', { region: 'south' }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ErrorCode.HeaderMismatch);
    expect(peer.requestsOf('tools/call')).toHaveLength(2);
    expect(peer.requestsOf('tools/list')).toHaveLength(1);
    await closesCleanly(client);
  });

  it('renegotiates once after a mid-session -32022 and retries', async () => {
    let lists = 0;
    const { client, peer } = await setup({
      'tools/list': (request, p) =>
        lists++ === 0
          ? p.error(request.id, ErrorCode.UnsupportedProtocolVersion, 'Unsupported version', {
              supported: ['2099-01-01', LATEST_VERSION],
              requested: versionOf(request.params),
            })
          : p.result(request.id, { tools: [PLAIN_TOOL] }),
    });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['plain']);
    const requests = peer.requestsOf('tools/list');
    expect(requests).toHaveLength(2);
    expect(versionOf(requests[1]?.params)).toBe(LATEST_VERSION);
    expect(client.protocolVersion).toBe(LATEST_VERSION);
    await closesCleanly(client);
  });

  it('gives up after one renegotiation, or at once without a mutual version', async () => {
    const { client, peer } = await setup({
      'tools/list': (request, p) =>
        p.error(request.id, ErrorCode.UnsupportedProtocolVersion, 'Unsupported version', {
          supported: [LATEST_VERSION],
          requested: versionOf(request.params),
        }),
      'prompts/list': (request, p) =>
        p.error(request.id, ErrorCode.UnsupportedProtocolVersion, 'Unsupported version', {
          supported: ['2099-01-01'],
          requested: versionOf(request.params),
        }),
    });
    const again = await rejectionOf(client.listTools());
    expect(again).toBeInstanceOf(ProtocolError);
    expect((again as ProtocolError).code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(peer.requestsOf('tools/list')).toHaveLength(2);

    const none = await rejectionOf(client.listPrompts());
    expectLocal(none, LocalErrorCode.NoMutualVersion);
    expect(peer.requestsOf('prompts/list')).toHaveLength(1);
    await closesCleanly(client);
  });
});
