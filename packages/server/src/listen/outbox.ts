/**
 * The sending side of one subscription: messages go out one after another, in order, and a
 * notification already waiting to be sent absorbs an identical one (a client told "tools
 * changed" once re-lists once), so a slow client cannot make the queue grow without bound.
 */
import type { JsonRpcNotification } from '@twofold/protocol/experimental';

export class Outbox {
  /** Settles when a send has failed: the subscription cannot go on. */
  readonly failed: Promise<void>;
  private chain: Promise<void> = Promise.resolve();
  private readonly waiting = new Set<string>();
  private broken = false;
  private fail!: () => void;

  constructor(
    private readonly send: (notification: JsonRpcNotification) => Promise<void>,
    private readonly report: (error: unknown) => void,
  ) {
    this.failed = new Promise((resolve) => {
      this.fail = resolve;
    });
  }

  push(notification: JsonRpcNotification): void {
    const key = `${notification.method} ${String(notification.params?.uri ?? '')}`;
    if (this.broken || this.waiting.has(key)) return;
    this.waiting.add(key);
    this.chain = this.chain.then(async () => {
      this.waiting.delete(key);
      if (this.broken) return;
      try {
        await this.send(notification);
      } catch (error) {
        this.broken = true;
        this.report(error);
        this.fail();
      }
    });
  }

  /** Settles once everything pushed so far has been sent (or given up). */
  drained(): Promise<void> {
    return this.chain;
  }
}
