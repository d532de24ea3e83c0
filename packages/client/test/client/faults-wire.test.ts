/**
 * Faulty servers at the JSON-RPC level, scripted over an in-memory pair, through `McpClient`:
 * wrong ids, silence, double answers, results without `resultType`, a listen stream that drops.
 * Every call settles, and the client closes afterwards.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client';
import {
  connectClient,
  eventually,
  rejectionOf,
  useClientCleanups,
} from '../support/client-harness';
import { type Reply, type ScriptedServer, scriptedTarget } from '../support/client-peer';

useClientCleanups();

async function setup(script: Record<string, Reply>) {
  const scripted = scriptedTarget(script);
  const connected = await connectClient(scripted.target, { era: 'modern' });
  const peer = scripted.peers[0] as ScriptedServer;
  return { ...connected, peer };
}

function expectLocal(error: Error, code: LocalErrorCode): void {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(code);
}

/** The client closes cleanly and reports itself closed. */
async function closesCleanly(client: McpClient): Promise<void> {
  await client.close();
  expect(client.closed).toBe(true);
}

const TEXT = (text: string) => ({ content: [{ type: 'text', text }] });

describe('McpClient with a faulty server', () => {
  it('warns about a response with an unknown id; the call times out', async () => {
    const { client, peer, warnings } = await setup({
      'tools/call': (_request, p) => p.result(9999, TEXT('lost')),
      'tools/list': (request, p) => p.result(request.id, { tools: [] }),
    });
    const error = await rejectionOf(client.callTool('echo', {}, { timeoutMs: 100 }));
    expectLocal(error, LocalErrorCode.RequestTimeout);
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: 'unexpected-message', details: { id: 9999 } }),
    );
    // The client is still usable after the stray answer.
    expect((await client.listTools()).tools).toEqual([]);
    expect(peer.requestsOf('tools/call')).toHaveLength(1);
    expect(client.closed).toBe(false);
    await closesCleanly(client);
  });

  it('times out a call the server never answers and cancels it on the wire', async () => {
    const { client, peer } = await setup({ 'tools/call': () => undefined });
    const error = await rejectionOf(client.callTool('echo', {}, { timeoutMs: 50 }));
    expectLocal(error, LocalErrorCode.RequestTimeout);
    const call = peer.requestsOf('tools/call')[0];
    await eventually(() => peer.notifications.length > 0);
    expect(peer.notifications[0]).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: call?.id },
    });
    await closesCleanly(client);
  });

  it('keeps the first of two answers and reports the second', async () => {
    const { client, warnings } = await setup({
      'tools/call': async (request, p) => {
        await p.result(request.id, TEXT('first'));
        await p.result(request.id, TEXT('second'));
      },
    });
    const result = await client.callTool('echo');
    expect(result.content).toEqual([{ type: 'text', text: 'first' }]);
    await eventually(() => warnings.length > 0);
    expect(warnings[0]).toMatchObject({ code: 'unexpected-message' });
    expect(warnings[0]?.message).toMatch(/already answered/);
    await closesCleanly(client);
  });

  it('treats results without resultType as complete', async () => {
    const { client } = await setup({
      'tools/call': (request, p) => p.result(request.id, TEXT('bare'), true),
      'tools/list': (request, p) =>
        p.result(request.id, { tools: [{ name: 'bare', inputSchema: { type: 'object' } }] }, true),
      'resources/read': (request, p) =>
        p.result(request.id, { contents: [{ uri: 'test://x', text: 'x' }] }, true),
    });
    const result = await client.callTool('bare');
    expect(result.content).toEqual([{ type: 'text', text: 'bare' }]);
    expect(result.resultType ?? 'complete').toBe('complete');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['bare']);
    // Not input_required, so no rounds; read as complete.
    expect((await client.readResource('test://x')).contents).toHaveLength(1);
    await closesCleanly(client);
  });

  it('rejects a result that breaks the schema with INVALID_RESULT and goes on', async () => {
    const { client } = await setup({
      'tools/list': (request, p) => p.result(request.id, { tools: 'not a list' }),
      'tools/call': (request, p) => p.result(request.id, TEXT('fine')),
    });
    expectLocal(await rejectionOf(client.listTools()), LocalErrorCode.InvalidResult);
    expect((await client.callTool('x')).content).toEqual([{ type: 'text', text: 'fine' }]);
    await closesCleanly(client);
  });

  it('fails a listen stream with CONNECTION_CLOSED when the server goes away', async () => {
    const { client, peer } = await setup({
      'subscriptions/listen': async (request, p) => {
        await p.tagged(request.id, 'notifications/subscriptions/acknowledged', {
          notifications: { toolsListChanged: true },
        });
        await p.tagged(request.id, 'notifications/tools/list_changed');
      },
      'tools/call': () => undefined,
    });
    const stream = client.listen({ toolsListChanged: true });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'toolsListChanged' } });
    const pending = client.callTool('slow');
    await eventually(() => peer.requestsOf('tools/call').length === 1);
    await peer.close();
    expectLocal(await rejectionOf(iterator.next()), LocalErrorCode.ConnectionClosed);
    expectLocal(await rejectionOf(pending), LocalErrorCode.ConnectionClosed);
    await eventually(() => client.closed);
    expectLocal(await rejectionOf(client.listTools()), LocalErrorCode.ConnectionClosed);
    await closesCleanly(client);
  });

  it('ends a listen stream normally when the server cancels it', async () => {
    const { client } = await setup({
      'subscriptions/listen': async (request, p) => {
        await p.tagged(request.id, 'notifications/subscriptions/acknowledged', {
          notifications: { toolsListChanged: true },
        });
        await p.notify('notifications/cancelled', { requestId: request.id, reason: 'bye' });
      },
    });
    const stream = client.listen({ toolsListChanged: true });
    const seen: unknown[] = [];
    for await (const change of stream) seen.push(change);
    expect(seen).toEqual([]);
    expect(client.closed).toBe(false);
    await closesCleanly(client);
  });
});
