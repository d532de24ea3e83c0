/**
 * Single use of sealed `requestState` values: a guard remembers each used state until it
 * expires. The in-memory default is bounded; when it is full it refuses new claims rather than
 * forgetting old ones, since a forgotten state could be replayed until it expires.
 */
import type { ClaimResult, ReplayGuard } from '../core/shared-state';

/** Used states the default guard remembers at once. */
export const DEFAULT_MAX_USED_STATES = 100_000;

/**
 * The default replay guard: used nonces in memory, each dropped once expired, at most
 * `maxEntries` at once (about 0.1 KiB each).
 *
 * @experimental
 */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly maxEntries: number,
    // The codec's clock: expiries are on that clock, so purging must be too.
    private readonly now: () => number,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError('RequestStateOptions.maxUsedStates must be a positive integer');
    }
  }

  /** How many used states it remembers now. */
  get size(): number {
    return this.used.size;
  }

  claim(nonce: string, expiresAt: number): ClaimResult {
    const now = this.now();
    // Claims arrive roughly in expiry order (one TTL for all), so purge from the oldest and stop
    // at the first live one: O(expired) per claim, not O(all). A straggler lives at most one
    // TTL longer, and an expired state is refused before it is claimed anyway.
    for (const [key, expiry] of this.used) {
      if (expiry > now) break;
      this.used.delete(key);
    }
    if (this.used.has(nonce)) return false;
    if (this.used.size >= this.maxEntries) return 'full';
    this.used.set(nonce, expiresAt);
    return true;
  }
}
