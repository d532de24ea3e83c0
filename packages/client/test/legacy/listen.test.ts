import { LocalError } from '@twofold/protocol/experimental';
import { McpServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { startLegacySession } from '../../src/legacy/session';
import type { ChangeNotification, ChangeStream } from '../../src/types';
import {
  connectLegacy,
  createTestServer,
  eventually,
  methodsOf,
  recordingHooks,
  useLegacyCleanups,
} from '../support/legacy-harness';
import { initializeResult, scriptedConnection } from '../support/legacy-peer';

useLegacyCleanups();

async function next(stream: ChangeStream): Promise<ChangeNotification | undefined> {
  const step = await stream[Symbol.asyncIterator]().next();
  return step.done ? undefined : step.value;
}

describe('legacy listen', () => {
  it('subscribes to resources and reports their updates only', async () => {
    const server = createTestServer();
    const { session, sent } = await connectLegacy(server);
    const stream = session.listen({ resourceSubscriptions: ['test://a'] });
    expect(await stream.acknowledged).toEqual({ resourceSubscriptions: ['test://a'] });
    expect(methodsOf(sent)).toContain('resources/subscribe');
    server.notifyResourceUpdated('test://b');
    server.notifyResourceUpdated('test://a');
    expect(await next(stream)).toEqual({ type: 'resourceUpdated', uri: 'test://a' });
    await stream.close();
  });

  it('reports list changes the server declares', async () => {
    const server = createTestServer();
    const recorded = recordingHooks();
    const { session } = await connectLegacy(server, { recorded });
    const stream = session.listen({ toolsListChanged: true, resourcesListChanged: false });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    server.registerPrompt({ name: 'other', get: () => ({ messages: [] }) });
    server.registerTool({ name: 'late', handler: () => 'ok' });
    expect(await next(stream)).toEqual({ type: 'toolsListChanged' });
    // The session still reports every notification.
    expect(recorded.notifications.map((n) => n.method)).toEqual([
      'notifications/prompts/list_changed',
      'notifications/tools/list_changed',
    ]);
    await stream.close();
  });

  it('acknowledges only what the server can honour', async () => {
    const server = new McpServer({ name: 'tools-only', version: '1.0.0' });
    server.registerTool({ name: 't', handler: () => 'ok' });
    const { session, sent } = await connectLegacy(server);
    const stream = session.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['test://a'],
    });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    expect(methodsOf(sent)).not.toContain('resources/subscribe');
    await stream.close();

    const { connection } = await scriptedConnection((request) =>
      request.method === 'initialize'
        ? initializeResult('2025-11-25', { tools: {}, resources: { listChanged: true } })
        : request.method === 'resources/subscribe'
          ? { error: { code: -32601, message: 'no subscriptions here' } }
          : { result: {} },
    );
    const scripted = await startLegacySession({
      connection,
      hooks: recordingHooks().hooks,
      serverKey: 's',
      transport: 'stream',
    });
    const plain = scripted.listen({
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['x'],
    });
    expect(await plain.acknowledged).toEqual({ resourcesListChanged: true });
    await plain.close();
  });

  it('leaves out resources the server refuses to subscribe, with a warning', async () => {
    const recorded = recordingHooks();
    const { connection, peer } = await scriptedConnection((request) => {
      if (request.method === 'initialize')
        return initializeResult('2025-06-18', { resources: { subscribe: true } });
      if (request.params?.uri === 'test://missing')
        return { error: { code: -32002, message: 'Resource not found' } };
      return { result: {} };
    });
    const session = await startLegacySession({
      connection,
      hooks: recorded.hooks,
      serverKey: 's',
      transport: 'stream',
    });
    const stream = session.listen({ resourceSubscriptions: ['test://a', 'test://missing'] });
    expect(await stream.acknowledged).toEqual({ resourceSubscriptions: ['test://a'] });
    expect(recorded.warnings).toMatchObject([
      { code: 'listen', details: { uri: 'test://missing' } },
    ]);
    await peer.notify('notifications/resources/updated', { uri: 'test://missing' });
    await peer.notify('notifications/resources/updated', { uri: 'test://a/sub' });
    expect(await next(stream)).toEqual({ type: 'resourceUpdated', uri: 'test://a/sub' });
    await stream.close();
    // Only the subscription that succeeded is dropped.
    expect(peer.messages('resources/unsubscribe')).toMatchObject([{ params: { uri: 'test://a' } }]);
  });

  it('shares a resource subscription and drops it when the last listen closes', async () => {
    const server = createTestServer();
    const { session, sent } = await connectLegacy(server);
    const first = session.listen({ resourceSubscriptions: ['test://a'] });
    const second = session.listen({ resourceSubscriptions: ['test://a', 'test://b'] });
    await Promise.all([first.acknowledged, second.acknowledged]);
    const subscribes = () =>
      sent.filter((m) => 'method' in m && m.method === 'resources/subscribe').length;
    const unsubscribed = () =>
      sent.flatMap((m) =>
        'method' in m && m.method === 'resources/unsubscribe' ? [m.params?.uri] : [],
      );
    expect(subscribes()).toBe(2);

    await first.close();
    expect(unsubscribed()).toEqual([]);
    server.notifyResourceUpdated('test://a');
    expect(await next(second)).toEqual({ type: 'resourceUpdated', uri: 'test://a' });

    await second.close();
    expect(unsubscribed().sort()).toEqual(['test://a', 'test://b']);

    // A new listen subscribes again (after the unsubscribe, in order).
    const third = session.listen({ resourceSubscriptions: ['test://a'] });
    await third.acknowledged;
    expect(subscribes()).toBe(3);
    server.notifyResourceUpdated('test://a');
    expect(await next(third)).toEqual({ type: 'resourceUpdated', uri: 'test://a' });
    await third.close();
  });

  it('unsubscribes after a subscribe still in flight when the listen closes at once', async () => {
    const { session, sent } = await connectLegacy(createTestServer());
    const stream = session.listen({ resourceSubscriptions: ['test://a'] });
    await stream.close();
    expect(methodsOf(sent).slice(-2)).toEqual(['resources/subscribe', 'resources/unsubscribe']);
    await expect(stream.acknowledged).rejects.toBeInstanceOf(LocalError);
  });

  it('fails open listens with CONNECTION_CLOSED when the connection drops', async () => {
    const recorded = recordingHooks();
    const { session, serverEnd } = await connectLegacy(createTestServer(), { recorded });
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const pending = next(stream);
    await serverEnd.close();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(recorded.closes).toHaveLength(1);
    const late = session.listen({ toolsListChanged: true });
    await expect(late.acknowledged).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('ends open listens normally when the session is closed', async () => {
    const recorded = recordingHooks();
    const { session } = await connectLegacy(createTestServer(), { recorded });
    const stream = session.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const pending = next(stream);
    await session.close();
    expect(await pending).toBeUndefined();
    expect(recorded.closes).toEqual([undefined]);
  });

  it('closes a listen when its signal aborts', async () => {
    const server = createTestServer();
    const { session, sent } = await connectLegacy(server);
    const controller = new AbortController();
    const stream = session.listen(
      { resourceSubscriptions: ['test://b'] },
      {
        signal: controller.signal,
      },
    );
    await stream.acknowledged;
    controller.abort();
    expect(await next(stream)).toBeUndefined();
    await stream.close();
    expect(methodsOf(sent)).toContain('resources/unsubscribe');
  });

  it('fails a listen that buffers too much and drops its subscription', async () => {
    const server = createTestServer();
    const recorded = recordingHooks();
    const { session, sent } = await connectLegacy(server, { recorded });
    const stream = session.listen({ resourceSubscriptions: ['test://a'] }, { maxBuffered: 1 });
    await stream.acknowledged;
    server.notifyResourceUpdated('test://a');
    server.notifyResourceUpdated('test://a');
    // Nobody reads while both arrive: the second one overflows.
    await eventually(() => recorded.notifications.length === 2);
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'resourceUpdated', uri: 'test://a' },
    });
    await expect(iterator.next()).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    await stream.close();
    expect(methodsOf(sent)).toContain('resources/unsubscribe');
  });
});
