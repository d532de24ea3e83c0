/**
 * Options of `McpServer`, shared by the registry and the dispatchers.
 */
import type { Icon, LegacyVersion, ModernVersion } from '@twofold/protocol/experimental';
import type { CachePolicy } from './api';
import type { ListenOptions } from './listen/hub';
import type { RequestStateOptions } from './mrtr/request-state';

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
}
