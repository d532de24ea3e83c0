/**
 * `RedisTaskStore` on a real redis-server: records shared by stores, terminal states never
 * overwritten, the live-task limit over every replica, and a task created through one twofold
 * server that another polls, answers and cancels.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { McpServer, type TaskRecord, TaskStoreFullError } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/task-store';
import { redisAvailable, untilSubscribers, useRedis } from './support/redis';

const CREATED = '2026-12-02T10:00:00.000Z';

function record(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    status: 'working',
    createdAt: CREATED,
    lastUpdatedAt: CREATED,
    ttlMs: 60_000,
    request: { name: 'build', protocolVersion: '2026-07-28', clientCapabilities: {} },
    ...overrides,
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!redisAvailable)('RedisTaskStore', () => {
  const redis = useRedis();
  const clock = () => Date.parse(CREATED);

  it('a task one store created is read and updated through another', async () => {
    const a = new RedisTaskStore(redis.client(), { keyPrefix: 'shared:', now: clock });
    const b = new RedisTaskStore(redis.client(), { keyPrefix: 'shared:', now: clock });
    await a.create(record('t1'));
    expect(await b.get('t1')).toEqual(record('t1'));
    expect(await b.update(record('t1', { statusMessage: 'compiling' }))).toBe(true);
    expect((await a.get('t1'))?.statusMessage).toBe('compiling');
    expect(await b.get('unknown')).toBeUndefined();
  });

  it('never overwrites a terminal task, nor writes one that is gone', async () => {
    const store = new RedisTaskStore(redis.client(), { keyPrefix: 'terminal:', now: clock });
    await store.create(record('t2'));
    expect(await store.update(record('t2', { status: 'cancelled' }))).toBe(true);
    expect(await store.update(record('t2', { status: 'completed', result: { content: [] } }))).toBe(
      false,
    );
    expect((await store.get('t2'))?.status).toBe('cancelled');
    expect(await store.update(record('never-created'))).toBe(false);
  });

  it('expires a task with its TTL', async () => {
    const client = redis.client();
    const store = new RedisTaskStore(client, { keyPrefix: 'ttl:', now: clock });
    await store.create(record('t3', { ttlMs: 30_000 }));
    const ttl = await client.pttl('ttl:t3');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('refuses a task beyond the limit until expiries make room', async () => {
    let now = clock();
    const store = new RedisTaskStore(redis.client(), {
      keyPrefix: 'limit:',
      maxTasks: 2,
      now: () => now,
    });
    await store.create(record('t4'));
    await store.create(record('t5'));
    await expect(store.create(record('t6'))).rejects.toBeInstanceOf(TaskStoreFullError);
    // Past both tasks' TTL on the store's clock, they no longer count.
    now += 60_001;
    await store.create(record('t6', { createdAt: new Date(now).toISOString() }));
  });

  it('hears the updates other stores make, never its own', async () => {
    const options = { keyPrefix: 'watch:', now: clock };
    const [a, b] = [redis.client(), redis.client()].map((c) => new RedisTaskStore(c, options));
    closers.push(() => Promise.all([a?.close(), b?.close()]));
    if (!a || !b) throw new Error('two stores expected');
    const heardOnA: TaskRecord[] = [];
    const heard = new Promise<TaskRecord>((resolve) => {
      a.watch((update) => {
        heardOnA.push(update);
        resolve(update);
      });
    });
    await untilSubscribers(redis.client(), 'watch:updates', 1);
    await a.create(record('w1'));
    await a.update(record('w1', { statusMessage: 'by a' }));
    await b.update(record('w1', { statusMessage: 'by b' }));
    expect((await heard).statusMessage).toBe('by b');
    expect(heardOnA.map((update) => update.statusMessage)).toEqual(['by b']);
  });

  it('a task created through one server is polled and cancelled through another', async () => {
    const store = () => {
      const shared = new RedisTaskStore(redis.client(), { keyPrefix: 'e2e:' });
      closers.push(() => shared.close());
      return { store: shared };
    };
    let startedOnA: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      startedOnA = resolve;
    });
    let stoppedOnA: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stoppedOnA = resolve;
    });
    const replica = async (name: string) => {
      const server = new McpServer({
        name,
        version: '1.0.0',
        tasks: { ...store(), pollIntervalMs: 5 },
      });
      server.registerTool({
        name: 'endless',
        taskSupport: 'required',
        handler: (_args, { signal }) =>
          new Promise<string>((resolve) => {
            startedOnA();
            signal.addEventListener('abort', () => {
              stoppedOnA();
              resolve('stopped');
            });
          }),
      });
      const endpoint = await serveHttp(server, { port: 0 });
      closers.push(() => endpoint.close());
      const client = await McpClient.connect(httpServer({ url: endpoint.url }), {
        clientInfo: { name: `client-of-${name}`, version: '1.0.0' },
      });
      closers.push(() => client.close());
      return client;
    };
    const [a, b] = [await replica('a'), await replica('b')];
    const { task } = await a.startToolTask('endless');
    if (!task) throw new Error('no task was made');
    await started;
    const seenOnB = await b.resumeToolTask(task.taskId);
    expect(seenOnB.state.status).toBe('working');
    await untilSubscribers(redis.client(), 'e2e:updates', 2);
    await seenOnB.cancel();
    // The handler runs on A: B's cancellation reaches it through the update channel.
    await stopped;
    expect((await a.resumeToolTask(task.taskId)).state.status).toBe('cancelled');
  });
});
