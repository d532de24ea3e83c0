/** The in-memory default of the change feed behind `subscriptions/listen`. */
import type { ChangeBus } from '../core/shared-state';
import type { Change } from '../operations/types';

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
