/**
 * Options of `McpServer`, shared by the registry and the dispatchers. They sit on the floor
 * below the eras because `ServedServer.options` carries them to every era.
 */
import type { Icon, LegacyVersion, ModernVersion } from '@twofold/protocol/experimental';
import type { CachePolicy } from '../api';
import type { ServerInstrumentation } from './instrumentation';
import type { ChangeBus, ReplayGuard } from './shared-state';
import type { TaskOptions } from './task-store';

/**
 * @experimental
 */
export interface McpServerOptions {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Usage hints for the model (`server/discover` and `initialize`). */
  instructions?: string;
  /** Versions offered, newest first. Default: every version twofold speaks. */
  versions?: { modern?: readonly ModernVersion[]; legacy?: readonly LegacyVersion[] };
  /**
   * Server-wide cache hints of cacheable modern results (`server/discover`, the lists,
   * `resources/read`); a registration may override them for its own results. Default
   * `{ ttlMs: 0, cacheScope: 'private' }`: never reused, never shared — safe until you say
   * otherwise.
   */
  cache?: CachePolicy;
  /** Items per page of every list. Default 100. */
  pageSize?: number;
  /** Signing, expiry and single use of modern `requestState` (multi-round-trip requests). */
  requestState?: RequestStateOptions;
  /** `subscriptions/listen`: the cap on open subscriptions and the change bus. */
  listen?: ListenOptions;
  /**
   * Follows every request the server answers (tracing, metrics): see `ServerInstrumentation`;
   * `openTelemetry()` of `@twofold/server/opentelemetry` makes one.
   */
  instrumentation?: ServerInstrumentation;
  /** The tasks extension (tools with `taskSupport`): the task store, TTL and poll interval. */
  tasks?: TaskOptions;
}

/**
 * @experimental
 */
export interface RequestStateOptions {
  /**
   * Key material (raw bytes or a string; use at least 32 random bytes), from which the
   * encryption keys are derived. Default: 32 random bytes per server, made on first use. Give
   * every replica of one endpoint the same key.
   */
  key?: Uint8Array | string;
  /** How long a state stays valid. Default 10 minutes. */
  ttlMs?: number;
  /** Remembers used states until they expire. Default: in memory, per server. */
  replayGuard?: ReplayGuard;
  /**
   * Used states the default in-memory guard remembers at once (about 0.1 KiB each). When it
   * is full, a retry is refused (-32603, `data.reason: "replay-guard-full"`) without consuming
   * its state, until expiries make room. Default 100,000. Ignored with `replayGuard`.
   */
  maxUsedStates?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Limits and the change feed of `subscriptions/listen`.
 *
 * @experimental
 */
export interface ListenOptions {
  /**
   * Subscriptions open at once on this server, over every connection; a listen beyond it is
   * refused with -32603 (`data.maxSubscriptions`). Default 1,000.
   */
  maxSubscriptions?: number;
  /**
   * Where changes travel. Default: an in-memory bus of this process. With a bus of your own,
   * the server publishes every change of its registry from the moment it is served (other
   * processes may be listening), and its subscriptions hear changes published by others.
   */
  bus?: ChangeBus;
}
