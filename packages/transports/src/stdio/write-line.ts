/**
 * Writing framed messages to a Node stream with backpressure: a send settles when the stream
 * has taken the bytes, waiting for `drain` when its buffer is full, and rejects when the stream
 * goes away first — a sender is never left waiting on a dead pipe.
 */
import type { Writable } from 'node:stream';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/** The error for a write on (or waiting on) a stream that has closed. */
export function connectionClosed(cause?: unknown): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, 'The stdio connection is closed', {
    cause,
  });
}

/** The error for a send whose signal fired before the stream took it. */
export function sendAborted(signal: AbortSignal): LocalError {
  return new LocalError(LocalErrorCode.RequestAborted, 'Sending was aborted', {
    cause: signal.reason,
  });
}

/** A send waiting for the stream to drain. */
interface Waiter {
  resolve(): void;
  reject(error: LocalError): void;
  detach(): void;
}

/**
 * Writes framed messages to one stream with backpressure. A write settles when the stream has
 * taken the bytes: at once when they fit its buffer, else on `drain`. It rejects with
 * `CONNECTION_CLOSED` when the stream closes or fails first, and with `REQUEST_ABORTED` when its
 * signal fires while waiting (the bytes are then already queued and may still go out: a stream
 * cannot take a write back). Every waiting write shares one `drain`/`close`/`error` listener, so
 * a burst of sends against a full pipe adds three listeners, not three per send.
 */
export class LineWriter {
  readonly #waiters = new Set<Waiter>();
  #failed: unknown;
  #listening = false;

  constructor(private readonly stream: Writable) {}

  write(text: string, signal?: AbortSignal): Promise<void> {
    const { stream } = this;
    if (signal?.aborted) return Promise.reject(sendAborted(signal));
    if (stream.destroyed || stream.writableEnded) return Promise.reject(connectionClosed());
    const accepted = stream.write(text, 'utf8', (error) => {
      if (error) this.#failed = error;
    });
    if (accepted) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(waiter);
        reject(sendAborted(signal as AbortSignal));
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
      this.#listen();
    });
  }

  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    this.stream.on('drain', this.#onDrain);
    this.stream.on('close', this.#onClose);
    this.stream.on('error', this.#onError);
  }

  #settle(error?: LocalError): void {
    this.#listening = false;
    this.stream.off('drain', this.#onDrain);
    this.stream.off('close', this.#onClose);
    this.stream.off('error', this.#onError);
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) {
      waiter.detach();
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  readonly #onDrain = () => this.#settle();
  readonly #onClose = () => this.#settle(connectionClosed(this.#failed));
  readonly #onError = (error: Error) => this.#settle(connectionClosed(error));
}
