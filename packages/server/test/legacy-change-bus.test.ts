/** A legacy session hears the shared change bus: changes another replica published reach it. */
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { startLegacySession } from '../src/legacy/start-session';
import { InMemoryChangeBus } from '../src/listen/change-bus';
import { McpServer } from '../src/server';
import { eventually, TestPeer } from './support/peer';
import { cleanups, useCleanups } from './support/responses';

useCleanups();

async function initializedSession(server: McpServer) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await startLegacySession(server, serverEnd, {});
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(() => peer.close());
  await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  });
  await peer.notify('notifications/initialized');
  return peer;
}

describe('legacy sessions and the change bus', () => {
  it('hears changes published on a shared bus by others, and its own once', async () => {
    const bus = new InMemoryChangeBus();
    const server = new McpServer({ name: 'replica', version: '1.0.0', listen: { bus } });
    server.registerTool({ name: 'echo', handler: () => 'echo' });
    const peer = await initializedSession(server);
    await eventually(() => bus.listenerCount === 1);

    // What another replica's change looks like here: a publish on the shared bus.
    bus.publish({ kind: 'tools' });
    await eventually(() => peer.notifications.length === 1);
    server.registerTool({ name: 'added', handler: () => 'x' });
    await eventually(() => peer.notifications.length === 2);
    await peer.request('ping');
    expect(peer.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
  });

  it('listens to the registry itself without a shared bus', async () => {
    const server = new McpServer({ name: 'single', version: '1.0.0' });
    server.registerTool({ name: 'echo', handler: () => 'echo' });
    const peer = await initializedSession(server);
    // Answered after notifications/initialized, which subscribed the session.
    await peer.request('ping');
    server.registerTool({ name: 'added', handler: () => 'x' });
    await eventually(() => peer.notifications.length === 1);
    expect(peer.notifications[0]?.method).toBe('notifications/tools/list_changed');
  });
});
