/**
 * The modern listen against a real twofold `McpServer`: the acknowledgement, tagged changes,
 * cancellation on the wire when the client closes, and the server's graceful end.
 */
import type { JsonRpcNotification, JsonRpcRequest } from '@twofold/protocol/experimental';
import { InMemoryChangeBus, McpServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import type { ChangeNotification } from '../../src/types';
import { eventually, serveModern, useModernCleanups } from '../support/modern-session';

useModernCleanups();

const PROJECT = 'file:///project';

function createServer() {
  const bus = new InMemoryChangeBus();
  const server = new McpServer({ name: 'listen-server', version: '1.0.0', listen: { bus } });
  server.registerTool({ name: 'echo', handler: () => 'echo' });
  server.registerResource({
    uri: PROJECT,
    name: 'project',
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'p' }] }),
  });
  return { server, bus };
}

/** Reads changes from a stream into `into` until it ends (or throws). */
async function drain(stream: AsyncIterable<ChangeNotification>, into: ChangeNotification[]) {
  for await (const change of stream) into.push(change);
}

describe('modern listen with a real server', () => {
  it('acknowledges the honoured subset, then delivers tagged changes', async () => {
    const { server } = createServer();
    const { session, hooks, received } = await serveModern(server);
    const stream = session.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: [PROJECT],
    });
    // No prompts on this server: promptsListChanged is not honoured.
    expect(await stream.acknowledged).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: [PROJECT],
    });
    const [listen] = received.filter(
      (m): m is JsonRpcRequest => 'method' in m && m.method === 'subscriptions/listen',
    );
    expect(listen?.params).toMatchObject({
      notifications: {
        toolsListChanged: true,
        promptsListChanged: true,
        resourceSubscriptions: [PROJECT],
      },
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });

    const iterator = stream[Symbol.asyncIterator]();
    server.registerTool({ name: 'second', handler: () => 'x' });
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'toolsListChanged' } });
    server.notifyResourceUpdated(`${PROJECT}/src/a.ts`);
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'resourceUpdated', uri: `${PROJECT}/src/a.ts` },
    });
    // The hooks (the client's cache) heard both, with their tags; not the acknowledgement.
    expect(hooks.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/updated',
    ]);
    expect(hooks.notifications[1]?.params).toMatchObject({
      _meta: { 'io.modelcontextprotocol/subscriptionId': listen?.id },
    });
    await stream.close();
  });

  it('close() cancels the listen on the wire and the server stops listening', async () => {
    const { server, bus } = createServer();
    const { session, received, connection } = await serveModern(server);
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    expect(bus.listenerCount).toBe(1);
    const [listen] = received.filter(
      (m): m is JsonRpcRequest => 'method' in m && m.method === 'subscriptions/listen',
    );
    await stream.close();
    await eventually(() => bus.listenerCount === 0);
    const cancels = received.filter(
      (m): m is JsonRpcNotification => 'method' in m && m.method === 'notifications/cancelled',
    );
    expect(cancels).toHaveLength(1);
    expect(cancels[0]?.params).toMatchObject({ requestId: listen?.id });
    expect(await stream[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
    // The connection itself goes on.
    expect(connection.isClosed).toBe(false);
    await session.request('tools/list', undefined);
  });

  it('break in for-await closes the stream', async () => {
    const { server, bus } = createServer();
    const { session } = await serveModern(server);
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    server.registerTool({ name: 'later', handler: () => 'x' });
    for await (const change of stream) {
      expect(change).toEqual({ type: 'toolsListChanged' });
      break;
    }
    await eventually(() => bus.listenerCount === 0);
  });

  it('ListenOptions.signal closes the stream', async () => {
    const { server, bus } = createServer();
    const { session } = await serveModern(server);
    const controller = new AbortController();
    const stream = session.listen({ toolsListChanged: true }, { signal: controller.signal });
    await stream.acknowledged;
    const changes: ChangeNotification[] = [];
    const drained = drain(stream, changes);
    controller.abort();
    await drained;
    expect(changes).toEqual([]);
    await eventually(() => bus.listenerCount === 0);
  });

  it('ends normally when the server closes with the final result', async () => {
    const { server } = createServer();
    const { session, served } = await serveModern(server);
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    server.registerTool({ name: 'before-close', handler: () => 'x' });
    const changes: ChangeNotification[] = [];
    const drained = drain(stream, changes);
    await eventually(() => changes.length === 1);
    await served.close();
    await drained;
    expect(changes).toEqual([{ type: 'toolsListChanged' }]);
  });

  it('ends open streams normally when the session closes', async () => {
    const { server, bus } = createServer();
    const { session } = await serveModern(server);
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const drained = drain(stream, []);
    await session.close();
    await drained;
    await eventually(() => bus.listenerCount === 0);
  });
});
