/**
 * The default result cache store: a bounded in-memory map.
 */
import type { CacheEntry, CacheStore } from './store';

/**
 * Options of {@link InMemoryCacheStore}.
 *
 * @experimental
 */
export interface InMemoryCacheStoreOptions {
  /** Entries kept at most; the oldest written is evicted first. Default 500. */
  maxEntries?: number;
  /** Clock for expiry, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * A `CacheStore` in memory: at most `maxEntries` entries (the oldest written is evicted), and
 * an expired entry is dropped when read.
 *
 * @experimental
 */
export class InMemoryCacheStore implements CacheStore {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: InMemoryCacheStoreOptions = {}) {
    this.#maxEntries = Math.max(0, options.maxEntries ?? 500);
    this.#now = options.now ?? Date.now;
  }

  /** How many entries are held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry under `key`, unless it has expired (then it is dropped). */
  get(key: string): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores `entry`, evicting the oldest entries past `maxEntries`. */
  set(key: string, entry: CacheEntry): void {
    if (this.#maxEntries === 0) return;
    // Re-inserting moves the key to the newest position.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  /** Removes every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of [...this.#entries.keys()]) {
      if (key.startsWith(prefix)) this.#entries.delete(key);
    }
  }
}
