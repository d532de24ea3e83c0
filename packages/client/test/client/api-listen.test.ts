/**
 * `McpClient.listen` against a real twofold server in both eras: modern `subscriptions/listen`,
 * legacy `resources/subscribe` plus list-changed notifications, behind one API.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeNotification, ChangeStream } from '../../src/types';
import {
  connectClient,
  ERAS,
  type Era,
  eventually,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';
import { buildApiServer } from '../support/client-server';

useClientCleanups();

async function setup(era: Era) {
  const server = buildApiServer();
  const served = serveTarget(server);
  const connected = await connectClient(served.target, { era });
  return { server, served, ...connected };
}

/** The next change of a stream. */
async function nextChange(stream: ChangeStream): Promise<ChangeNotification | undefined> {
  const next = await stream[Symbol.asyncIterator]().next();
  return next.done ? undefined : next.value;
}

describe.each(ERAS)('McpClient listen (%s)', (era) => {
  it('reports tool list changes', async () => {
    const { client, server, notifications } = await setup(era);
    const stream = client.listen({ toolsListChanged: true });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    server.registerTool({ name: 'late', handler: () => 'late' });
    expect(await nextChange(stream)).toEqual({ type: 'toolsListChanged' });
    expect(notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');
    await stream.close();
  });

  it('reports updates of subscribed resources only', async () => {
    const { client, server, served } = await setup(era);
    const stream = client.listen({ resourceSubscriptions: ['test://one'] });
    expect(await stream.acknowledged).toEqual({ resourceSubscriptions: ['test://one'] });
    if (era === 'legacy') {
      expect(served.requests('resources/subscribe')[0]?.params).toEqual({ uri: 'test://one' });
    }
    server.notifyResourceUpdated('test://two');
    server.notifyResourceUpdated('test://one');
    expect(await nextChange(stream)).toEqual({ type: 'resourceUpdated', uri: 'test://one' });
    await stream.close();
    if (era === 'legacy') {
      await eventually(() => served.requests('resources/unsubscribe').length === 1);
    }
  });

  it('ends the server side when the consumer breaks out', async () => {
    const { client, server, served } = await setup(era);
    const stream = client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://two'] });
    await stream.acknowledged;
    server.notifyResourceUpdated('test://two');
    const seen: ChangeNotification[] = [];
    for await (const change of stream) {
      seen.push(change);
      break;
    }
    expect(seen).toEqual([{ type: 'resourceUpdated', uri: 'test://two' }]);
    if (era === 'modern') {
      const listen = served.requests('subscriptions/listen')[0];
      await eventually(() =>
        served.received.some(
          (m) =>
            'method' in m &&
            m.method === 'notifications/cancelled' &&
            (m.params as { requestId?: unknown }).requestId === listen?.id,
        ),
      );
    } else {
      await eventually(() => served.requests('resources/unsubscribe').length === 1);
    }
    // The client still works after the stream ended.
    await client.ping();
  });

  it('closes the stream when the signal aborts', async () => {
    const { client } = await setup(era);
    const controller = new AbortController();
    const stream = client.listen({ toolsListChanged: true }, { signal: controller.signal });
    await stream.acknowledged;
    controller.abort();
    expect(await nextChange(stream)).toBeUndefined();
  });

  it('ends open streams quietly when the client closes', async () => {
    const { client } = await setup(era);
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const drained = (async () => {
      const seen: ChangeNotification[] = [];
      for await (const change of stream) seen.push(change);
      return seen;
    })();
    await client.close();
    expect(await drained).toEqual([]);
  });

  it('feeds several streams at once', async () => {
    const { client, server } = await setup(era);
    const tools = client.listen({ toolsListChanged: true });
    const resources = client.listen({ resourceSubscriptions: ['test://three'] });
    await Promise.all([tools.acknowledged, resources.acknowledged]);
    server.registerTool({ name: 'another', handler: () => 'x' });
    server.notifyResourceUpdated('test://three');
    expect(await nextChange(tools)).toEqual({ type: 'toolsListChanged' });
    expect(await nextChange(resources)).toEqual({ type: 'resourceUpdated', uri: 'test://three' });
    await Promise.all([tools.close(), resources.close()]);
  });
});
