/**
 * Two twofold servers over HTTP sharing one Redis, reached by the twofold client: what one
 * replica does, the other sees.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { afterEach, describe, expect, it } from 'vitest';
import { legacyHandshake, legacyStream } from './support/legacy-http';
import { redisAvailable, untilSubscribers, useRedis } from './support/redis';
import { type Replica, startReplica } from './support/replicas';

const clientInfo = { name: 'scale-out-test', version: '1.0.0' };

describe.skipIf(!redisAvailable)('replicas sharing Redis', () => {
  const redis = useRedis();
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function replicas(channel: string): Promise<[Replica, Replica]> {
    const a = await startReplica('a', redis.client(), channel);
    open.push(a);
    const b = await startReplica('b', redis.client(), channel);
    open.push(b);
    return [a, b];
  }

  async function connect(replica: Replica) {
    const client = await McpClient.connect(httpServer({ url: replica.endpoint.url }), {
      clientInfo,
      era: 'modern',
      // Declares elicitation; the replay test answers its rounds by hand (`inputMode: 'manual'`).
      handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    open.push(client);
    return client;
  }

  it('a listen on A hears a tool registered on B', async () => {
    const [a, b] = await replicas('test:listen');
    const client = await connect(a);
    const stream = client.listen({ toolsListChanged: true });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    b.server.registerTool({ name: 'added-on-b', handler: () => 'x' });
    const next = await stream[Symbol.asyncIterator]().next();
    expect(next.value).toEqual({ type: 'toolsListChanged' });
    await stream.close();
  });

  it('a retry lands on either replica, and a requestState used on one is refused on the other', async () => {
    const [a, b] = await replicas('test:replay');
    const [onA, onB] = [await connect(a), await connect(b)];
    const first = await onA.callTool('greet', {}, { inputMode: 'manual' });
    expect(first.resultType).toBe('input_required');
    const requestState = 'requestState' in first ? String(first.requestState) : '';
    const inputResponses = { name: { action: 'accept', content: { name: 'Ada' } } };

    const done = await onB.callTool('greet', {}, { inputResponses, requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'Hello, Ada from b!' }]);
    await expect(onA.callTool('greet', {}, { inputResponses, requestState })).rejects.toThrow(
      /already used/,
    );
  });

  it('a legacy session resumes a dropped stream from the events Redis kept', async () => {
    const [a] = await replicas('test:legacy');
    const url = a.endpoint.url;
    const sessionId = await legacyHandshake(url);
    const first = await legacyStream(url, sessionId);
    const primingId = await first.untilEventId();
    expect(primingId).toContain('.');
    await first.drop();

    // Sent while no stream is open: stored in Redis, replayed on resumption.
    a.server.registerTool({ name: 'added-while-away', handler: () => 'x' });
    const resumed = await legacyStream(url, sessionId, primingId);
    const replayed = await resumed.next();
    expect(replayed?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    expect(replayed?.id.startsWith(primingId.slice(0, primingId.lastIndexOf('.')))).toBe(true);
    await resumed.drop();
  });

  it('a legacy session on A hears a tool registered on B', async () => {
    const [a, b] = await replicas('test:legacy-bus');
    const sessionId = await legacyHandshake(a.endpoint.url);
    const stream = await legacyStream(a.endpoint.url, sessionId);
    await stream.untilEventId();
    b.server.registerTool({ name: 'added-on-b', handler: () => 'x' });
    expect((await stream.next())?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    await stream.drop();
  });

  it('a listen on A goes on hearing B after Redis restarts', async () => {
    const channel = 'test:restart';
    const [a, b] = await replicas(channel);
    const client = await connect(a);
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const changes = stream[Symbol.asyncIterator]();

    await redis.server.restart();
    // While Redis was away B may have held changes; both buses subscribe again once it is back.
    await untilSubscribers(redis.client(), channel, 2);
    expect(a.bus.listenerCount).toBe(1);
    b.server.registerTool({ name: 'added-after-restart', handler: () => 'x' });
    expect((await changes.next()).value).toEqual({ type: 'toolsListChanged' });
    await stream.close();
  });
});
