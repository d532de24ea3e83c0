/**
 * The client's result cache: stores complete results of cacheable methods for their `ttlMs`,
 * partitioned by server and by scope (`public` results are shared; `private` ones belong to one
 * principal), and drops them when the server announces a change.
 */
import { CACHEABLE_METHODS, readCacheHints, resultTypeOf } from '@twofold/protocol/experimental';
import { canonicalJson } from './canonical-json';
import type { CacheStore } from './store';

const SEP = '\u0000';

// Which cached methods each change notification makes stale.
const STALE_AFTER: ReadonlyMap<string, readonly string[]> = new Map([
  ['notifications/tools/list_changed', ['tools/list']],
  ['notifications/prompts/list_changed', ['prompts/list']],
  ['notifications/resources/list_changed', ['resources/list', 'resources/templates/list']],
]);

/**
 * Reads and writes cached results for one server and principal. Keys are
 * `server NUL partition NUL method NUL canonical-params`, where the partition is `public` or
 * `private:<principal>` and the params are taken without `_meta` (which changes per request).
 * Store failures propagate to the caller.
 */
export class ResultCache {
  readonly #store: CacheStore;
  readonly #serverKey: string;
  readonly #principal: string;
  readonly #now: () => number;

  constructor(
    store: CacheStore,
    serverKey: string,
    principal: string,
    now: () => number = Date.now,
  ) {
    this.#store = store;
    this.#serverKey = serverKey;
    this.#principal = principal;
    this.#now = now;
  }

  /**
   * A fresh cached result for the request (a private entry of this principal first, then a
   * public one), as a copy; `undefined` for other methods or on a miss.
   */
  async get(
    method: string,
    params: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown> | undefined> {
    if (!CACHEABLE_METHODS.has(method)) return undefined;
    const body = paramsText(params);
    for (const partition of this.#partitions()) {
      const entry = await this.#store.get(this.#key(partition, method, body));
      // A store may keep expired entries; this clock decides.
      if (entry !== undefined && entry.expiresAt > this.#now()) {
        return structuredClone(entry.result);
      }
    }
    return undefined;
  }

  /**
   * Stores a result when its method is cacheable, it is complete, and its `ttlMs` is positive,
   * under the partition its `cacheScope` names (missing scope: private). The same request's
   * entry in the other partition is dropped so it cannot shadow this one.
   */
  async put(
    method: string,
    params: Record<string, unknown> | undefined,
    result: Record<string, unknown>,
  ): Promise<void> {
    if (!CACHEABLE_METHODS.has(method)) return;
    if (resultTypeOf(result) !== 'complete') return;
    const hints = readCacheHints(result);
    if (hints.ttlMs <= 0) return;
    const body = paramsText(params);
    const [privatePart, publicPart] = this.#partitions();
    const own = hints.cacheScope === 'public' ? publicPart : privatePart;
    const other = hints.cacheScope === 'public' ? privatePart : publicPart;
    // Canonical params text is a complete JSON value, so the full key is an exact prefix.
    await this.#store.deletePrefix(this.#key(other, method, body));
    await this.#store.set(this.#key(own, method, body), {
      result: structuredClone(result),
      expiresAt: this.#now() + hints.ttlMs,
    });
  }

  /**
   * Drops what a server notification makes stale: the list behind a `list_changed`, and for
   * `notifications/resources/updated` the `resources/read` of that URI (params `{uri}`). Other
   * notifications change nothing.
   */
  async invalidate(method: string, params: Record<string, unknown> | undefined): Promise<void> {
    const prefixes: string[] = [];
    for (const partition of this.#partitions()) {
      for (const stale of STALE_AFTER.get(method) ?? []) {
        prefixes.push(this.#key(partition, stale, ''));
      }
      if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
        prefixes.push(this.#key(partition, 'resources/read', paramsText({ uri: params.uri })));
      }
    }
    for (const prefix of prefixes) await this.#store.deletePrefix(prefix);
  }

  /** Drops every entry of this server, in every partition. */
  async clear(): Promise<void> {
    await this.#store.deletePrefix(`${this.#serverKey}${SEP}`);
  }

  #partitions(): [privatePartition: string, publicPartition: string] {
    return [`private:${this.#principal}`, 'public'];
  }

  #key(partition: string, method: string, body: string): string {
    return `${this.#serverKey}${SEP}${partition}${SEP}${method}${SEP}${body}`;
  }
}

function paramsText(params: Record<string, unknown> | undefined): string {
  if (params === undefined) return '{}';
  const { _meta: _ignored, ...rest } = params;
  return canonicalJson(rest);
}
