/**
 * The restart arithmetic as pure functions: how long to wait before the next start, and when a
 * server has failed often enough to be a crash loop.
 */
import type { RestartPolicy } from '../config/types';

/**
 * The delay before restart number `consecutive` (1 for the first after a run of successes):
 * `initialDelayMs × factor^(consecutive−1)`, capped at `maxDelayMs`, then spread by ±`jitter`
 * with `random` in [0, 1) (and capped again), so servers that failed together do not restart
 * in step.
 *
 * @experimental
 */
export function restartDelay(
  policy: Pick<RestartPolicy, 'initialDelayMs' | 'maxDelayMs' | 'factor' | 'jitter'>,
  consecutive: number,
  random: () => number,
): number {
  const exponent = Math.max(0, consecutive - 1);
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** exponent);
  const spread = base * policy.jitter * (2 * random() - 1);
  return Math.round(Math.min(policy.maxDelayMs, Math.max(0, base + spread)));
}

/**
 * Failure times within a sliding window: a server that fails `maxFailures` times within
 * `windowMs` is in a crash loop. Only sustained uptime (`reset`) or time clears it.
 *
 * @experimental
 */
export class FailureWindow {
  readonly #times: number[] = [];

  constructor(private readonly policy: Pick<RestartPolicy, 'maxFailures' | 'windowMs'>) {}

  /** Records a failure at `now`; returns how many fall within the window. */
  record(now: number): number {
    this.#times.push(now);
    return this.count(now);
  }

  /** Failures within the window ending at `now`. */
  count(now: number): number {
    const since = now - this.policy.windowMs;
    while (this.#times.length > 0 && (this.#times[0] as number) <= since) this.#times.shift();
    return this.#times.length;
  }

  /** Whether the failures within the window reach the limit. */
  exhausted(now: number): boolean {
    return this.count(now) >= this.policy.maxFailures;
  }

  reset(): void {
    this.#times.length = 0;
  }
}
