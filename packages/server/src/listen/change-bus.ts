/**
 * The feed of changes behind `subscriptions/listen`. A server publishes its own changes to the
 * bus and every open subscription listens on it, so plugging in a bus shared by several
 * processes (a message broker, a database channel) lets a listener on one instance hear about
 * changes made on another.
 */
import type { Change } from '../operations/types';

/**
 * Publish/subscribe of `Change` values. `publish` must not throw: a bus that does I/O handles
 * (and reports) its own failures. A listener may unsubscribe while it is being called.
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
 * The default `ChangeBus`: synchronous delivery to the listeners of this process.
 *
 * @experimental
 */
export class InMemoryChangeBus implements ChangeBus {
  private readonly listeners = new Set<(change: Change) => void>();

  /** How many listeners are subscribed (one per open subscription). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  publish(change: Change): void {
    // A copy, so a listener that unsubscribes does not disturb the iteration.
    for (const listener of [...this.listeners]) listener(change);
  }

  subscribe(listener: (change: Change) => void): () => void {
    // A wrapper per call, so subscribing the same function twice gives two subscriptions.
    const entry = (change: Change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }
}
