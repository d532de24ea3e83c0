/**
 * The sending side of one subscription: messages go out one after another, in order, and a
 * notification already waiting to be sent absorbs an identical one (a client told "tools
 * changed" once re-lists once), so a slow client cannot make the queue grow without bound.
 */
import type { JsonRpcNotification } from '@twofold/protocol/experimental';

const keyOf = (notification: JsonRpcNotification) =>
  `${notification.method} ${String(notification.params?.uri ?? '')}`;

export class Outbox {
  /** Settles when a send has failed: the subscription cannot go on. */
  readonly failed: Promise<void>;
  private readonly queue: JsonRpcNotification[] = [];
  private readonly waiting = new Set<string>();
  private readonly pumped: Promise<void>;
  private wake: () => void = () => {};
  private closing = false;
  private broken = false;
  private fail!: () => void;

  constructor(
    private readonly send: (notification: JsonRpcNotification) => Promise<void>,
    private readonly report: (error: unknown) => void,
  ) {
    this.failed = new Promise((resolve) => {
      this.fail = resolve;
    });
    // Sends run on the task that made the outbox (the subscription's own request), never on
    // the one that pushed (a change made by another request): Workers allow no I/O on
    // another request's stream.
    this.pumped = this.pump();
  }

  push(notification: JsonRpcNotification): void {
    const key = keyOf(notification);
    if (this.broken || this.closing || this.waiting.has(key)) return;
    this.waiting.add(key);
    this.queue.push(notification);
    this.wake();
  }

  /** Sends everything pushed so far (or gives up on a failed send), then takes no more. */
  drain(): Promise<void> {
    this.closing = true;
    this.wake();
    return this.pumped;
  }

  private async pump(): Promise<void> {
    for (;;) {
      const next = this.queue.shift();
      if (next === undefined) {
        if (this.closing) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      this.waiting.delete(keyOf(next));
      try {
        await this.send(next);
      } catch (error) {
        this.broken = true;
        this.queue.length = 0;
        this.report(error);
        this.fail();
        return;
      }
    }
  }
}
