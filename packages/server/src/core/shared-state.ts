/**
 * The pluggable interfaces behind state that several server processes may share: the feed of
 * changes behind `subscriptions/listen` and the record of used `requestState` values. Each has
 * an in-memory default of this process (`InMemoryChangeBus`, `MemoryReplayGuard`); plug in one
 * on shared storage when several replicas serve one endpoint.
 */
import type { Change } from '../operations/types';

/**
 * Publish/subscribe of `Change` values. A server publishes its own changes to the bus and every
 * open subscription listens on it, so a bus shared by several processes (a message broker, a
 * database channel) lets a listener on one instance hear about changes made on another.
 * `publish` must not throw: a bus that does I/O handles (and reports) its own failures. A
 * listener may unsubscribe while it is being called.
 *
 * @experimental
 */
export interface ChangeBus {
  /** Delivers `change` to every listener (of every process sharing the bus). */
  publish(change: Change): void;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (change: Change) => void): () => void;
}

/**
 * What a claim found: `true` claimed now, `false` already used, `'full'` the guard cannot
 * remember another state right now (the state is not consumed and may be retried).
 *
 * @experimental
 */
export type ClaimResult = boolean | 'full';

/**
 * Single-use enforcement of sealed states. Implement it on shared storage when several replicas
 * serve one endpoint.
 *
 * @experimental
 */
export interface ReplayGuard {
  /** Records `nonce` until `expiresAt` (on the codec's clock); see {@link ClaimResult}. */
  claim(nonce: string, expiresAt: number): ClaimResult | Promise<ClaimResult>;
}
