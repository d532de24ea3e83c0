/**
 * Every piece of state a replica shares, on one Redis, in one call: what a server program
 * spreads into its `McpServer` options and its HTTP endpoint's `legacy` options.
 */
import type { McpServerOptions } from '@twofold/server/experimental';
import type { Redis } from 'ioredis';
import { RedisChangeBus, type RedisChangeBusOptions } from './change-bus';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store';
import { RedisReplayGuard, type RedisReplayGuardOptions } from './replay-guard';
import type { RedisErrorHandler } from './reporting';
import { RedisTaskStore, type RedisTaskStoreOptions } from './task-store';

/**
 * Options of {@link connectRedisState}: the request-state key, and each store's own options.
 *
 * @experimental
 */
export interface RedisStateOptions {
  /**
   * The key that seals `requestState` (`requestState.key`): the same on every replica, or a
   * retry that reaches another one fails. Absent: each process makes its own.
   */
  requestStateKey?: Uint8Array | string;
  changeBus?: RedisChangeBusOptions;
  replayGuard?: RedisReplayGuardOptions;
  eventStore?: RedisEventStoreOptions;
  taskStore?: RedisTaskStoreOptions;
  /** Where every store reports the failures it handles itself, unless its options say. */
  onError?: RedisErrorHandler;
}

/**
 * The shared state of one replica.
 *
 * @experimental
 */
export interface RedisState {
  /** Spread into `new McpServer({ … })`: `requestState`, `listen` and `tasks`. */
  readonly serverOptions: Required<Pick<McpServerOptions, 'requestState' | 'listen' | 'tasks'>>;
  /** The `legacy` options of `serveHttp` / `createServerHttpHandler`: resumable streams. */
  readonly legacyOptions: { eventStore: RedisEventStore };
  readonly bus: RedisChangeBus;
  readonly taskStore: RedisTaskStore;
  /** Closes the connections the stores opened; `redis` itself stays the caller's. */
  close(): Promise<void>;
}

/**
 * Connects the change bus (it subscribes before this resolves) and makes the other stores on
 * `redis`.
 *
 * @example
 * ```ts
 * const shared = await connectRedisState(new Redis(process.env.REDIS_URL ?? ''), {
 *   requestStateKey: process.env.REQUEST_STATE_KEY,
 * });
 * const server = new McpServer({ name: 'replica', version: '1.0.0', ...shared.serverOptions });
 * const endpoint = await serveHttp(server, { port: 3000, legacy: shared.legacyOptions });
 * ```
 *
 * @experimental
 */
export async function connectRedisState(
  redis: Redis,
  options: RedisStateOptions = {},
): Promise<RedisState> {
  const reporting = options.onError === undefined ? {} : { onError: options.onError };
  const bus = await RedisChangeBus.connect(redis, { ...reporting, ...options.changeBus });
  const taskStore = new RedisTaskStore(redis, { ...reporting, ...options.taskStore });
  const { requestStateKey } = options;
  return {
    serverOptions: {
      requestState: {
        ...(requestStateKey === undefined ? {} : { key: requestStateKey }),
        replayGuard: new RedisReplayGuard(redis, { ...reporting, ...options.replayGuard }),
      },
      listen: { bus },
      tasks: { store: taskStore },
    },
    legacyOptions: {
      eventStore: new RedisEventStore(redis, { ...reporting, ...options.eventStore }),
    },
    bus,
    taskStore,
    close: async () => {
      await Promise.all([bus.close(), taskStore.close()]);
    },
  };
}
