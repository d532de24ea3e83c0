/**
 * Persisted era verdicts: which entry fields a verdict depends on, when a stored one may be
 * reused, and what of a fresh one is worth storing.
 *
 * Decision: the era verdict itself (era, version, transport) stays valid until the entry
 * changes or the server contradicts it (a failed connect with it); the `server/discover`
 * result inside it is kept only for its `ttlMs` (`storeVerdict` of @twofold/client).
 */
import { type EraVerdict, restoreVerdict, storeVerdict } from '@twofold/client/experimental';
import type { ServerEntry, StoredVerdict } from '../config/types';

/**
 * The entry fields that decide which server is reached and how, as JSON: a verdict learned
 * with other values does not apply. References stay unresolved, so no secret is in it.
 *
 * @experimental
 */
export function entryFingerprint(entry: ServerEntry): string {
  const pin = [entry.era, entry.protocolVersion ?? null];
  if (entry.type === 'stdio') {
    return JSON.stringify(['stdio', entry.command, entry.args, entry.cwd ?? null, ...pin]);
  }
  return JSON.stringify([entry.type, entry.url, ...pin]);
}

/**
 * The target key a managed server's client uses: its name and fingerprint, never a resolved
 * secret (the key is persisted inside the verdict).
 *
 * @experimental
 */
export function managedServerKey(name: string, entry: ServerEntry): string {
  return `mcp.json:${JSON.stringify([name, entryFingerprint(entry)])}`;
}

/**
 * The verdict to hand the client for `entry`, or `undefined` (with why) when `stored` does not
 * apply: another entry, or a discover result past its `expiresAt` (dropped, era kept).
 *
 * @experimental
 */
export function reusableVerdict(
  stored: StoredVerdict | undefined,
  entry: ServerEntry,
  key: string,
  now: number,
): { verdict?: EraVerdict; dropped?: string } {
  if (stored === undefined) return {};
  if (stored.entryFingerprint !== entryFingerprint(entry)) {
    return { dropped: 'the entry changed since the verdict was stored' };
  }
  if (stored.verdict.serverKey !== key) return { dropped: 'it belongs to another server key' };
  return { verdict: restoreVerdict(stored, now) };
}

/**
 * What to store of a client's verdict: the discover result only when its `ttlMs` lets it be
 * reused, with the time it goes stale; `undefined` for a verdict reached by silence, which is
 * never kept.
 *
 * @experimental
 */
export function storableVerdict(
  verdict: EraVerdict,
  entry: ServerEntry,
  now: number,
): StoredVerdict | undefined {
  const kept = storeVerdict(verdict, now);
  return kept === undefined ? undefined : { ...kept, entryFingerprint: entryFingerprint(entry) };
}

/**
 * Whether two stored verdicts say the same (so an unchanged one is not written again).
 *
 * @experimental
 */
export function sameStoredVerdict(a: StoredVerdict | undefined, b: StoredVerdict): boolean {
  if (a === undefined) return false;
  // How a verdict was reached says nothing about the server: a reused one was reached by none.
  const { discover: da, reachedBy: _ra, ...va } = a.verdict;
  const { discover: db, reachedBy: _rb, ...vb } = b.verdict;
  return (
    JSON.stringify(va) === JSON.stringify(vb) &&
    a.entryFingerprint === b.entryFingerprint &&
    (da === undefined) === (db === undefined)
  );
}
