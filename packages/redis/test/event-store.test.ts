import type { JsonRpcMessage } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { RedisEventStore } from '../src/event-store';
import { redisAvailable, useRedis } from './support/redis';

const note = (method: string): JsonRpcMessage => ({ jsonrpc: '2.0', method });

async function replay(store: RedisEventStore, lastEventId: string) {
  const replayed: { id: string; message: JsonRpcMessage }[] = [];
  const streamId = await store.replayEventsAfter(lastEventId, async (id, message) => {
    replayed.push({ id, message });
  });
  return { streamId, replayed };
}

describe.skipIf(!redisAvailable)('RedisEventStore', () => {
  const redis = useRedis();

  it('replays the events after an id, of its stream only, skipping the priming position', async () => {
    const store = new RedisEventStore(redis.client());
    const priming = await store.storePrimingEvent('stream-a');
    await store.storeEvent('stream-b', note('other stream'));
    const first = await store.storeEvent('stream-a', note('first'));
    const second = await store.storeEvent('stream-a', note('second'));
    expect(new Set([priming, first, second]).size).toBe(3);

    expect(await replay(store, priming)).toEqual({
      streamId: 'stream-a',
      replayed: [
        { id: first, message: note('first') },
        { id: second, message: note('second') },
      ],
    });
    expect(await replay(store, second)).toEqual({ streamId: 'stream-a', replayed: [] });
  });

  it('is read by another store on the same Redis (another replica)', async () => {
    const writer = new RedisEventStore(redis.client());
    const reader = new RedisEventStore(redis.client());
    const first = await writer.storeEvent('stream-c', note('one'));
    await writer.storeEvent('stream-c', note('two'));
    expect((await replay(reader, first)).replayed.map((e) => e.message)).toEqual([note('two')]);
  });

  it('knows no id it did not issue, nor one trimmed away', async () => {
    const store = new RedisEventStore(redis.client(), { maxEventsPerStream: 2 });
    const ids = [];
    for (const method of ['a', 'b', 'c'])
      ids.push(await store.storeEvent('stream-d', note(method)));
    expect(await replay(store, ids[0] ?? '')).toEqual({ streamId: undefined, replayed: [] });
    expect((await replay(store, ids[1] ?? '')).replayed.map((e) => e.message)).toEqual([note('c')]);
    for (const unknown of ['', '42', 'stream-d.1-0', 'stream-d.x', 'nope.0-1']) {
      expect((await replay(store, unknown)).streamId, unknown).toBeUndefined();
    }
  });

  it('expires a stream retentionMs after its last event', async () => {
    const client = redis.client();
    const store = new RedisEventStore(client, { keyPrefix: 'test:events:', retentionMs: 5_000 });
    await store.storeEvent('stream-e', note('x'));
    const ttl = await client.pttl('test:events:stream-e');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('refuses retention settings below 1', () => {
    const client = redis.client({ lazyConnect: true });
    expect(() => new RedisEventStore(client, { maxEventsPerStream: 0 })).toThrow(RangeError);
    expect(() => new RedisEventStore(client, { retentionMs: 0.5 })).toThrow(RangeError);
  });
});
