/**
 * The CLI's result cache on disk: results the server marked cacheable (`ttlMs`) are reused by
 * later runs until they go stale. Partitioned like the in-memory cache (server key, principal),
 * and the CLI adds the era to the principal.
 */
import type { CacheEntry, CacheStore } from '@twofold/client/experimental';
import { StateFile } from './state-file';

/** Entries kept at most; the oldest to expire go first. */
const MAX_ENTRIES = 2000;

/** A `CacheStore` backed by one JSON file. */
export class DiskCacheStore implements CacheStore {
  private constructor(private readonly file: StateFile<CacheEntry>) {}

  /** Opens the cache at `path`, dropping what has expired. */
  static async open(path: string): Promise<DiskCacheStore> {
    const now = Date.now();
    return new DiskCacheStore(await StateFile.open<CacheEntry>(path, (e) => e.expiresAt > now));
  }

  get(key: string): CacheEntry | undefined {
    const entry = this.file.get(key);
    if (entry === undefined || entry.expiresAt > Date.now()) return entry;
    this.file.delete(key);
    return undefined;
  }

  set(key: string, entry: CacheEntry): void {
    this.file.set(key, entry);
    const keys = this.file.keys();
    if (keys.length <= MAX_ENTRIES) return;
    const soonest = keys
      .map((k) => [k, this.file.get(k)?.expiresAt ?? 0] as const)
      .sort((a, b) => a[1] - b[1]);
    for (const [k] of soonest.slice(0, keys.length - MAX_ENTRIES)) this.file.delete(k);
  }

  deletePrefix(prefix: string): void {
    for (const key of this.file.keys()) if (key.startsWith(prefix)) this.file.delete(key);
  }

  save(): Promise<Error | undefined> {
    return this.file.save();
  }
}
