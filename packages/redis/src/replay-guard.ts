/** A `ReplayGuard` on Redis: a used `requestState` is refused on every replica. */
import type { ClaimResult, ReplayGuard } from '@twofold/server/experimental';
import type { Redis } from 'ioredis';
import { asError, type RedisErrorHandler, warnProcess } from './reporting';

/**
 * Options of {@link RedisReplayGuard}.
 *
 * @experimental
 */
export interface RedisReplayGuardOptions {
  /** Prefix of the guard's keys (one per used state, gone when it expires). Default `twofold:used:`. */
  keyPrefix?: string;
  /** The clock of the request-state codec (`requestState.now`). Default `Date.now`. */
  now?: () => number;
  /** Failures the guard handled itself (default: a process warning). */
  onError?: RedisErrorHandler;
}

/**
 * Remembers used states in Redis with `SET key 1 PX <ttl> NX`, so the first replica to claim a
 * state wins and every later claim, on any replica, is refused. While Redis cannot answer, a
 * claim is `'full'`: the retry is refused without consuming its state, and may be sent again.
 *
 * @example
 * ```ts
 * const server = new McpServer({
 *   name: 'replica',
 *   version: '1.0.0',
 *   requestState: { key: sharedKey, replayGuard: new RedisReplayGuard(redis) },
 * });
 * ```
 *
 * @experimental
 */
export class RedisReplayGuard implements ReplayGuard {
  private readonly keyPrefix: string;
  private readonly now: () => number;
  private readonly report: RedisErrorHandler;

  constructor(
    private readonly redis: Redis,
    options: RedisReplayGuardOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'twofold:used:';
    this.now = options.now ?? Date.now;
    this.report = options.onError ?? warnProcess;
  }

  async claim(nonce: string, expiresAt: number): Promise<ClaimResult> {
    // At least a millisecond: an expiring state is still claimed once, never twice.
    const ttlMs = Math.max(1, Math.ceil(expiresAt - this.now()));
    try {
      const set = await this.redis.set(this.keyPrefix + nonce, '1', 'PX', ttlMs, 'NX');
      return set === 'OK';
    } catch (error) {
      this.report(asError(error));
      return 'full';
    }
  }
}
