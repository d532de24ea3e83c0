/**
 * The pluggable store behind the result cache. Keys are opaque strings built by the client
 * (server, principal, method and params); a store only keeps entries until they expire.
 */

/**
 * One cached result.
 *
 * @experimental
 */
export interface CacheEntry {
  result: Record<string, unknown>;
  /** Epoch milliseconds after which the entry is stale. */
  expiresAt: number;
}

/**
 * A result cache store. Methods may return promises (e.g. a shared store); the in-memory store
 * answers synchronously.
 *
 * @experimental
 */
export interface CacheStore {
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): void | Promise<void>;
  /** Removes every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void | Promise<void>;
}
