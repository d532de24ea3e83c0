/**
 * Keeping an era verdict between connections: the era, version and transport stay valid until
 * the server contradicts them, but the `server/discover` result inside is kept only for the
 * `ttlMs` the server gave it. A verdict reached by silence is never kept: it says how fast the
 * server was this time, not which era it speaks.
 */
import type { EraVerdict } from '../types';

/**
 * An era verdict as stored: `expiresAt` (ISO time) is when its discover result goes stale.
 *
 * @experimental
 */
export interface StoredEraVerdict {
  verdict: EraVerdict;
  expiresAt?: string;
}

/**
 * What to store of `verdict` at `now` (epoch ms): the discover result only when its `ttlMs`
 * lets it be reused, with the time it goes stale. `undefined` when the verdict must not be
 * stored at all (`reachedBy: 'silence'`): store nothing, and drop what was stored for the
 * server before, so that the next connection probes again.
 *
 * @experimental
 */
export function storeVerdict(verdict: EraVerdict, now: number): StoredEraVerdict | undefined {
  if (verdict.reachedBy === 'silence') return undefined;
  const { discover, ...era } = verdict;
  const ttlMs = (discover as { ttlMs?: unknown } | undefined)?.ttlMs;
  if (discover === undefined || typeof ttlMs !== 'number' || ttlMs <= 0) return { verdict: era };
  return { verdict, expiresAt: new Date(now + ttlMs).toISOString() };
}

/**
 * The verdict to pass as `McpClientOptions.verdict` at `now`: the stored one, without its
 * discover result once that is stale.
 *
 * @experimental
 */
export function restoreVerdict(stored: StoredEraVerdict, now: number): EraVerdict {
  if (stored.expiresAt === undefined || Date.parse(stored.expiresAt) > now) return stored.verdict;
  const { discover: _stale, ...era } = stored.verdict;
  return era;
}
