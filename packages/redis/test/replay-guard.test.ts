import { describe, expect, it } from 'vitest';
import { RedisReplayGuard } from '../src/replay-guard';
import { redisAvailable, useRedis } from './support/redis';

describe.skipIf(!redisAvailable)('RedisReplayGuard', () => {
  const redis = useRedis();

  it('lets one claim of a state win across guards sharing Redis', async () => {
    const expiresAt = Date.now() + 60_000;
    const a = new RedisReplayGuard(redis.client());
    const b = new RedisReplayGuard(redis.client());
    expect(await a.claim('n1', expiresAt)).toBe(true);
    expect(await b.claim('n1', expiresAt)).toBe(false);
    expect(await a.claim('n1', expiresAt)).toBe(false);
    expect(await b.claim('n2', expiresAt)).toBe(true);
  });

  it('remembers a state until it expires, under its prefix', async () => {
    const client = redis.client();
    const guard = new RedisReplayGuard(client, { keyPrefix: 'test:used:', now: () => 1_000 });
    expect(await guard.claim('n3', 31_000)).toBe(true);
    const ttl = await client.pttl('test:used:n3');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('answers full, and reports, while Redis cannot answer', async () => {
    const errors: Error[] = [];
    const client = redis.client({ enableOfflineQueue: false, lazyConnect: true });
    const guard = new RedisReplayGuard(client, { onError: (error) => errors.push(error) });
    // Never connected: the command fails at once instead of waiting for Redis.
    expect(await guard.claim('n4', Date.now() + 60_000)).toBe('full');
    expect(errors).toHaveLength(1);
  });
});
