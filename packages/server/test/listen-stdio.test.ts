import type { JsonRpcNotification, JsonRpcResponse } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import type { McpServerOptions } from '../src/core/options';
import type { ServedServer } from '../src/core/served-server';
import { InMemoryChangeBus } from '../src/listen/change-bus';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import { eventually, modernParams, TestPeer } from './support/peer';
import { cleanups, useCleanups } from './support/responses';
import { schemaErrors, specAvailable } from './support/spec-schema';
import { createTestServer } from './support/test-server';

const ID = 'io.modelcontextprotocol/subscriptionId';
useCleanups();

/** A server with tools and resources but no prompts. */
function createServer(options: Partial<McpServerOptions> = {}) {
  const server = new McpServer({ name: 'listen-test', version: '1.0.0', ...options });
  server.registerTool({ name: 'echo', handler: () => 'echo' });
  server.registerResource({
    uri: 'file:///project',
    name: 'project',
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'p' }] }),
  });
  return server;
}

async function connect(server: ServedServer) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const connection = await serveTransport(server, serverEnd);
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(() => peer.close());
  return { peer, connection };
}

function listen(peer: TestPeer, id: string | number, notifications: Record<string, unknown>) {
  return peer.fire('subscriptions/listen', modernParams({ notifications }), id);
}

/** The notifications of subscription `id`, in arrival order. */
function streamOf(peer: TestPeer, id: string | number): JsonRpcNotification[] {
  return peer.notifications.filter(
    (n) => (n.params?._meta as Record<string, unknown>)?.[ID] === id,
  );
}

function expectSpecValid(name: string, message: unknown) {
  if (specAvailable) expect(schemaErrors('2026-07-28', name, message)).toEqual([]);
}

describe('subscriptions/listen on a connection (stdio)', () => {
  it('acknowledges first with the honoured subset, then sends only requested, tagged types', async () => {
    const server = createServer();
    const { peer } = await connect(server);
    listen(peer, 'sub-1', {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['file:///project'],
    });
    await eventually(() => streamOf(peer, 'sub-1').length === 1);
    const [ack] = streamOf(peer, 'sub-1');
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { [ID]: 'sub-1' },
        // No prompts on this server: promptsListChanged is not honoured.
        notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///project'] },
      },
    });
    expectSpecValid('SubscriptionsAcknowledgedNotification', ack);

    server.registerResource({
      uri: 'file:///other',
      name: 'other',
      read: (uri) => ({ contents: [{ uri: uri.href, text: 'o' }] }),
    }); // resources list changed: not requested
    server.notifyResourceUpdated('file:///other'); // not subscribed
    server.notifyResourceUpdated('file:///project-x'); // not below the subscribed URI
    server.notifyResourceUpdated('file:///project/src/a.ts'); // a sub-resource: matches
    server.registerTool({ name: 'second', handler: () => 'x' });
    await eventually(() => streamOf(peer, 'sub-1').length === 3);
    const [, updated, toolsChanged] = streamOf(peer, 'sub-1');
    expect(updated).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { _meta: { [ID]: 'sub-1' }, uri: 'file:///project/src/a.ts' },
    });
    expect(toolsChanged).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [ID]: 'sub-1' } },
    });
    expectSpecValid('ResourceUpdatedNotification', updated);
    expectSpecValid('ToolListChangedNotification', toolsChanged);
    // Nothing untagged, nothing else: no progress or log messages on a listen stream.
    expect(peer.notifications).toHaveLength(3);
  });

  it('demultiplexes concurrent subscriptions by their request ids', async () => {
    const server = createServer();
    const { peer } = await connect(server);
    listen(peer, 1, { toolsListChanged: true });
    listen(peer, 2, { resourceSubscriptions: ['file:///project'] });
    await eventually(() => streamOf(peer, 1).length === 1 && streamOf(peer, 2).length === 1);
    server.registerTool({ name: 'later', handler: () => 'x' });
    server.notifyResourceUpdated('file:///project');
    await eventually(() => streamOf(peer, 1).length === 2 && streamOf(peer, 2).length === 2);
    expect(streamOf(peer, 1).map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
    ]);
    expect(streamOf(peer, 2).map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/updated',
    ]);
  });

  it('ends on notifications/cancelled naming the listen id, without a response', async () => {
    const bus = new InMemoryChangeBus();
    const server = createServer({ listen: { bus } });
    const { peer } = await connect(server);
    listen(peer, 9, { toolsListChanged: true });
    await eventually(() => streamOf(peer, 9).length === 1);
    expect(bus.listenerCount).toBe(1);
    await peer.notify('notifications/cancelled', { requestId: 9 });
    await eventually(() => bus.listenerCount === 0);
    server.registerTool({ name: 'after-cancel', handler: () => 'x' });
    // A request after the cancel is answered; the listen never is, and nothing more arrives.
    await peer.request('tools/list', modernParams());
    expect(peer.answerCounts.has(9)).toBe(false);
    expect(streamOf(peer, 9)).toHaveLength(1);
  });

  it('ends gracefully with the final result when the server closes the connection', async () => {
    const server = createServer();
    const { peer, connection } = await connect(server);
    const answered = peer.request(
      'subscriptions/listen',
      modernParams({ notifications: { toolsListChanged: true } }),
      'bye',
    );
    await eventually(() => streamOf(peer, 'bye').length === 1);
    await connection.close();
    const response: JsonRpcResponse = await answered;
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'bye',
      result: {
        resultType: 'complete',
        _meta: { [ID]: 'bye', 'io.modelcontextprotocol/serverInfo': server.serverInfo },
      },
    });
    expectSpecValid('SubscriptionsListenResultResponse', response);
    expect(peer.answerCounts.get('bye')).toBe(1);
  });

  it('refuses a listen beyond maxSubscriptions with -32603 and frees the slot on cancel', async () => {
    const server = createServer({ listen: { maxSubscriptions: 2 } });
    const { peer } = await connect(server);
    listen(peer, 'a', {});
    listen(peer, 'b', {});
    await eventually(() => streamOf(peer, 'a').length === 1 && streamOf(peer, 'b').length === 1);
    const refused = await peer.request(
      'subscriptions/listen',
      modernParams({ notifications: {} }),
      'c',
    );
    expect(refused).toMatchObject({
      id: 'c',
      error: { code: -32603, data: { maxSubscriptions: 2 } },
    });
    expect(streamOf(peer, 'c')).toEqual([]);
    await peer.notify('notifications/cancelled', { requestId: 'a' });
    // Cancels and requests are handled in arrival order, so the slot is free by now.
    listen(peer, 'd', {});
    await eventually(() => streamOf(peer, 'd').length === 1);
  });

  it('leaves no listener behind after many listen/cancel cycles', async () => {
    const server = createTestServer();
    const { peer } = await connect(server);
    for (let i = 0; i < 200; i++) {
      const id = `cycle-${i}`;
      listen(peer, id, { toolsListChanged: true });
      await eventually(() => streamOf(peer, id).length === 1);
      expect(server.operations.listenerCount).toBe(1);
      await peer.notify('notifications/cancelled', { requestId: id });
    }
    await eventually(() => server.operations.listenerCount === 0);
    expect(peer.answerCounts.size).toBe(0);
  });

  it('checks the listen options when served, and publishes to a shared bus from then on', async () => {
    const bad = createServer({ listen: { maxSubscriptions: 0 } });
    const [, serverEnd] = createInMemoryPair();
    await expect(serveTransport(bad, serverEnd)).rejects.toThrow(RangeError);

    const bus = new InMemoryChangeBus();
    const seen: string[] = [];
    bus.subscribe((change) => seen.push(change.kind));
    const server = createServer({ listen: { bus } });
    await connect(server);
    server.registerTool({ name: 'heard-elsewhere', handler: () => 'x' });
    expect(seen).toEqual(['tools']);
  });

  it('rejects a listen without its filter or without _meta with -32602', async () => {
    const { peer } = await connect(createServer());
    expect(await peer.request('subscriptions/listen', modernParams())).toMatchObject({
      error: { code: -32602 },
    });
    expect(
      await peer.request('subscriptions/listen', { notifications: { toolsListChanged: true } }),
    ).toMatchObject({ error: { code: -32602 } });
  });
});
