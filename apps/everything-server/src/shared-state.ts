/**
 * Where the everything server keeps what its replicas share: in this process by default, in
 * Redis with `--redis <url>`; and the request-state key, from `TWOFOLD_REQUEST_STATE_KEY`.
 */
import type { McpServerOptions } from '@twofold/server/experimental';
import { type EventStore, InMemoryEventStore } from '@twofold/transports/http-server';

/** The stores and key of one process, and how to let go of them. */
export interface SharedState {
  options: Pick<McpServerOptions, 'requestState' | 'listen' | 'tasks'>;
  eventStore: EventStore;
  close(): Promise<void>;
}

/** The key of `TWOFOLD_REQUEST_STATE_KEY` (hex, at least 32 bytes); undefined when unset. */
export function requestStateKeyFromEnv(env: NodeJS.ProcessEnv): Uint8Array | undefined {
  const hex = env.TWOFOLD_REQUEST_STATE_KEY;
  if (hex === undefined || hex === '') return undefined;
  // The value is a secret: the message never repeats it.
  if (!/^(?:[0-9a-f]{2}){32,}$/i.test(hex)) {
    throw new Error('TWOFOLD_REQUEST_STATE_KEY must be at least 32 bytes, written in hex');
  }
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Every store in memory, or with `redisUrl` every store in that Redis. */
export async function openSharedState(
  redisUrl: string | undefined,
  key: Uint8Array | undefined,
): Promise<SharedState> {
  const requestState = key === undefined ? {} : { key };
  if (redisUrl === undefined) {
    return {
      options: { requestState },
      eventStore: new InMemoryEventStore(),
      close: async () => undefined,
    };
  }
  // Loaded only with --redis: a server in memory never needs the Redis packages (or their build).
  const [{ Redis }, { connectRedisState }] = await Promise.all([
    import('ioredis'),
    import('@twofold/redis/experimental'),
  ]);
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  const shared = await connectRedisState(redis, key === undefined ? {} : { requestStateKey: key });
  return {
    options: shared.serverOptions,
    eventStore: shared.legacyOptions.eventStore,
    close: async () => {
      await shared.close();
      await redis.quit();
    },
  };
}
