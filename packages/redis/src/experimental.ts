/**
 * The experimental API of `@twofold/redis`: state that several twofold server processes share
 * through Redis (the change bus of `subscriptions/listen`, the replay guard of `requestState`,
 * the legacy resumability event store, the task store of the tasks extension). Node-only, like
 * its client `ioredis`. Every export may change in any minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export { RedisChangeBus, type RedisChangeBusOptions } from './change-bus';
export { RedisEventStore, type RedisEventStoreOptions } from './event-store';
export {
  connectRedisState,
  type RedisState,
  type RedisStateOptions,
} from './redis-state';
export { RedisReplayGuard, type RedisReplayGuardOptions } from './replay-guard';
export type { RedisErrorHandler } from './reporting';
export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store';
