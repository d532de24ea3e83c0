import type { Change } from '@twofold/server/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisChangeBus, type RedisChangeBusOptions } from '../src/change-bus';
import { redisAvailable, untilSubscribers, useRedis } from './support/redis';

/** Collects what a bus delivers; `next()` waits for the next change. */
function collector(bus: RedisChangeBus) {
  const heard: Change[] = [];
  let wake: (() => void) | undefined;
  bus.subscribe((change) => {
    heard.push(change);
    wake?.();
  });
  return {
    heard,
    /** Waits until `count` changes arrived, or one that `match` accepts. */
    async until(count: number, match?: (change: Change) => boolean): Promise<void> {
      const done = () => (match ? heard.some(match) : heard.length >= count);
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

describe.skipIf(!redisAvailable)('RedisChangeBus', () => {
  const redis = useRedis();
  const buses: RedisChangeBus[] = [];
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
  });

  async function connect(options: RedisChangeBusOptions = {}) {
    const bus = await RedisChangeBus.connect(redis.client(), options);
    buses.push(bus);
    return bus;
  }

  it('delivers a change to this process at once and to the others once, through Redis', async () => {
    const channel = 'test:deliver';
    const [a, b] = [await connect({ channel }), await connect({ channel })];
    const [onA, onB] = [collector(a), collector(b)];
    a.publish({ kind: 'tools' });
    expect(onA.heard).toEqual([{ kind: 'tools' }]);
    await onB.until(1);
    b.publish({ kind: 'resource-updated', uri: 'file:///x' });
    await onA.until(2);
    expect(onA.heard).toEqual([{ kind: 'tools' }, { kind: 'resource-updated', uri: 'file:///x' }]);
    expect(onB.heard).toEqual(onA.heard);
  });

  it('reports a message on its channel that is not a change, and goes on', async () => {
    const channel = 'test:malformed';
    const errors: Error[] = [];
    const bus = await connect({ channel, onError: (error) => errors.push(error) });
    const onBus = collector(bus);
    const other = redis.client();
    await other.publish(channel, 'not json');
    await other.publish(channel, JSON.stringify({ from: 'x', change: { kind: 'nope' } }));
    await other.publish(channel, JSON.stringify({ from: 'x', change: { kind: 'prompts' } }));
    await onBus.until(1);
    expect(onBus.heard).toEqual([{ kind: 'prompts' }]);
    expect(errors.map((error) => error.message)).toEqual([
      `Redis change bus: a message on ${channel} is not JSON`,
      `Redis change bus: a message on ${channel} is not a change`,
    ]);
  });

  it('keeps its listeners across a Redis restart and bounds what waits meanwhile', async () => {
    const channel = 'test:restart';
    const errors: Error[] = [];
    const options = { channel, maxQueuedChanges: 5, onError: (error: Error) => errors.push(error) };
    const [a, b] = [await connect(options), await connect(options)];
    const [onA, onB] = [collector(a), collector(b)];

    await redis.server.stop();
    for (let i = 0; i < 50; i++) b.publish({ kind: 'resource-updated', uri: `file:///${i}` });
    // Heard in its own process, held for the others at most 5 distinct changes.
    expect(onB.heard).toHaveLength(50);
    expect(b.queuedCount).toBe(5);
    expect(errors.some((error) => error.message.includes('dropping the oldest'))).toBe(true);

    await redis.server.restart();
    await untilSubscribers(redis.client(), channel, 2);
    b.publish({ kind: 'tools' });
    // Changes held during the outage may arrive first (or be missed: A was not subscribed yet).
    await onA.until(0, (change) => change.kind === 'tools');
    expect(a.listenerCount).toBe(1);
  });
});
