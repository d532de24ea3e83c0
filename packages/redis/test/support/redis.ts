/** A private redis-server per test file, and ioredis clients on it that the file closes. */
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import {
  haveBinary,
  startRedis,
  type TestRedis,
} from '../../../../config/test-support/redis-server.ts';

export const redisAvailable = haveBinary('redis-server', 'the Redis tests');

/**
 * Starts a redis-server for the calling test file (in `beforeAll`) and stops it after; clients
 * made with `client()` are closed first.
 */
export function useRedis() {
  let server: TestRedis | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    if (redisAvailable) server = await startRedis();
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await server?.stop();
  });
  const running = (): TestRedis => {
    if (server === undefined) throw new Error('redis-server is not running');
    return server;
  };
  return {
    get server() {
      return running();
    },
    /** A client of the test Redis, closed after the file. */
    client(options: RedisOptions = {}): Redis {
      const client = new Redis(running().url, options);
      // A stopped server makes ioredis emit errors; the tests look at what the stores report.
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
  };
}

/** Waits until `count` connections subscribe to `channel` (bounded by the test timeout). */
export async function untilSubscribers(admin: Redis, channel: string, count: number) {
  for (;;) {
    const [, subscribers] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
    if (subscribers >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
