/** `resultType`, cache hints and pagination: the shapes every modern result shares. */
import type { Cursor } from './types';
import { isRecord } from './util';

/**
 * Result types of the core protocol. Extensions may add others (the tasks extension: `task`).
 *
 * @experimental
 */
export const ResultType = { Complete: 'complete', InputRequired: 'input_required' } as const;
/**
 * A core result type.
 *
 * @experimental
 */
export type ResultType = (typeof ResultType)[keyof typeof ResultType];

/**
 * `public`: no user data, shareable by any cache. `private`: one authorization context only.
 *
 * @experimental
 */
export type CacheScope = 'public' | 'private';

/**
 * The caching hints of a cacheable modern result.
 *
 * @experimental
 */
export interface CacheHints {
  /** How long, in milliseconds, the result may be reused; 0 means stale at once. */
  ttlMs: number;
  cacheScope: CacheScope;
}

/**
 * Methods whose complete modern results must carry cache hints.
 *
 * @experimental
 */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * Methods that may answer `input_required` (multi-round-trip requests).
 *
 * @experimental
 */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

/**
 * A page of a paginated list.
 *
 * @experimental
 */
export interface Page<T> {
  items: T[];
  nextCursor?: Cursor;
}

/**
 * The result type of a received result: a missing `resultType` (older servers) is `complete`.
 *
 * @experimental
 */
export function resultTypeOf(result: unknown): string {
  if (!isRecord(result)) return ResultType.Complete;
  return typeof result.resultType === 'string' ? result.resultType : ResultType.Complete;
}

/**
 * The cache hints of a received result, read as a client must: missing or negative `ttlMs`
 * counts as 0 (stale at once), a missing scope as `private` (the safe reading).
 *
 * @experimental
 */
export function readCacheHints(result: unknown): CacheHints {
  const ttl = isRecord(result) ? result.ttlMs : undefined;
  const scope = isRecord(result) ? result.cacheScope : undefined;
  return {
    ttlMs: typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? Math.floor(ttl) : 0,
    cacheScope: scope === 'public' ? 'public' : 'private',
  };
}
