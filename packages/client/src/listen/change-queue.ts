/**
 * The consumer side of a `listen` subscription: a bounded buffer of change notifications that
 * the era session fills and the caller drains with `for await`.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { ChangeNotification, ChangeStream, ListenFilter } from '../types';

/**
 * Options of {@link ChangeQueue}.
 */
export interface ChangeQueueOptions {
  /** Unread notifications kept before the queue fails with `LIMIT_EXCEEDED`. */
  maxBuffered: number;
  /**
   * Tears the subscription down (cancel the listen request, unsubscribe). Called at most once:
   * on the consumer's `close()` (also `break` in `for await`) or on overflow. `close()` never
   * rejects (callers often fire and forget it), so report teardown failures from here.
   */
  onClose: () => Promise<void> | void;
}

type State = 'open' | 'ended' | 'failed' | 'closed';

interface Waiter {
  resolve: (result: IteratorResult<ChangeNotification>) => void;
  reject: (error: unknown) => void;
}

/**
 * A `ChangeStream` fed by an era session. The producer calls `acknowledge`, `push`, then
 * `end` or `fail`; the consumer iterates and may `close`. Single consumer: every iterator
 * drains the same buffer.
 */
export class ChangeQueue implements ChangeStream {
  /** Resolves with the honoured filter; rejects if the stream ends or closes first. */
  readonly acknowledged: Promise<ListenFilter>;
  readonly #maxBuffered: number;
  readonly #onClose: () => Promise<void> | void;
  readonly #buffer: ChangeNotification[] = [];
  readonly #waiters: Waiter[] = [];
  #state: State = 'open';
  #error: Error | undefined;
  #ackSettled = false;
  #resolveAck!: (filter: ListenFilter) => void;
  #rejectAck!: (error: Error) => void;
  #closing: Promise<void> | undefined;

  constructor(options: ChangeQueueOptions) {
    this.#maxBuffered = options.maxBuffered;
    this.#onClose = options.onClose;
    this.acknowledged = new Promise<ListenFilter>((resolve, reject) => {
      this.#resolveAck = resolve;
      this.#rejectAck = reject;
    });
    // Nobody has to await the acknowledgement: keep its rejection from being "unhandled".
    this.acknowledged.catch(() => {});
  }

  /** Records the server's acknowledgement; only the first call counts. */
  acknowledge(filter: ListenFilter): void {
    if (this.#ackSettled) return;
    this.#ackSettled = true;
    this.#resolveAck(filter);
  }

  /** Adds a change; ignored once the stream is over. Past `maxBuffered` unread, fails. */
  push(change: ChangeNotification): void {
    if (this.#state !== 'open') return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter.resolve({ value: change, done: false });
      return;
    }
    if (this.#buffer.length >= this.#maxBuffered) {
      this.fail(
        new LocalError(
          LocalErrorCode.LimitExceeded,
          `listen stream buffered more than ${this.#maxBuffered} unread notifications`,
          { details: { maxBuffered: this.#maxBuffered } },
        ),
      );
      // The subscription is useless now: tear it down on the server side too.
      void this.#runOnClose();
      return;
    }
    this.#buffer.push(change);
  }

  /** The server ended the subscription: iteration finishes after the buffered changes. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#settleAck(
      new LocalError(
        LocalErrorCode.ConnectionClosed,
        'listen stream ended before it was acknowledged',
      ),
    );
    this.#drainWaiters();
  }

  /** The stream broke: iteration throws `error` after the buffered changes. */
  fail(error: Error): void {
    if (this.#state !== 'open') return;
    this.#state = 'failed';
    this.#error = error;
    this.#settleAck(error);
    this.#drainWaiters();
  }

  /** Ends iteration at once (dropping unread changes) and calls `onClose` once; never rejects. */
  close(): Promise<void> {
    if (this.#state === 'open' || this.#state === 'ended' || this.#state === 'failed') {
      this.#state = 'closed';
      this.#buffer.length = 0;
      this.#settleAck(
        new LocalError(LocalErrorCode.RequestAborted, 'listen closed before it was acknowledged'),
      );
      this.#drainWaiters();
    }
    return this.#runOnClose();
  }

  /** Iterates the changes; `break` (or `return`) closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<ChangeNotification> {
    return {
      next: () => this.#next(),
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }

  #next(): Promise<IteratorResult<ChangeNotification>> {
    const change = this.#buffer.shift();
    if (change !== undefined) return Promise.resolve({ value: change, done: false });
    if (this.#state === 'open') {
      return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
    }
    return this.#finish();
  }

  // Once the buffer is empty: a failure is thrown once, then the iterator is done.
  #finish(): Promise<IteratorResult<ChangeNotification>> {
    const error = this.#error;
    if (this.#state === 'failed' && error) {
      this.#error = undefined;
      return Promise.reject(error);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  #drainWaiters(): void {
    // Waiters only exist while the buffer is empty.
    for (const waiter of this.#waiters.splice(0)) {
      this.#finish().then(waiter.resolve, waiter.reject);
    }
  }

  #settleAck(error: Error): void {
    if (this.#ackSettled) return;
    this.#ackSettled = true;
    this.#rejectAck(error);
  }

  #runOnClose(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#onClose();
      } catch {
        // Documented: onClose reports its own failures; the consumer is done either way.
      }
    })();
    return this.#closing;
  }
}

type ListChange = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

const CHANGE_TYPES: ReadonlyMap<string, ListChange> = new Map([
  ['notifications/tools/list_changed', 'toolsListChanged'],
  ['notifications/prompts/list_changed', 'promptsListChanged'],
  ['notifications/resources/list_changed', 'resourcesListChanged'],
]);

// Core notifications that are not changes (request-scoped, stream control or handshake).
const NOT_CHANGES: ReadonlySet<string> = new Set([
  'notifications/progress',
  'notifications/message',
  'notifications/subscriptions/acknowledged',
  'notifications/cancelled',
  'notifications/initialized',
  'notifications/roots/list_changed',
  'notifications/elicitation/complete',
]);

/**
 * Maps a server notification to the change a `listen` stream reports, or `undefined` when it is
 * no change (progress, log messages, acknowledgements, cancellation, or a malformed
 * `resources/updated` without a string `uri`). Methods outside the core become `extension`.
 */
export function changeFromNotification(
  method: string,
  params: Record<string, unknown> | undefined,
): ChangeNotification | undefined {
  const type = CHANGE_TYPES.get(method);
  if (type !== undefined) return { type };
  if (method === 'notifications/resources/updated') {
    const uri = params?.uri;
    return typeof uri === 'string' ? { type: 'resourceUpdated', uri } : undefined;
  }
  if (NOT_CHANGES.has(method)) return undefined;
  return params === undefined
    ? { type: 'extension', method }
    : { type: 'extension', method, params };
}
