/**
 * A `server/discover` probe in flight on a message stream. It has no timeout of its own: it
 * listens until it is answered, the stream ends, the connect attempt ends, or it is given up —
 * and giving it up sends nothing (the late answer is dropped quietly).
 */
import { LocalError, type ProbeObservation } from '@twofold/protocol/experimental';
import type { RpcConnection } from '../rpc/connection';
import type { RpcOutcome } from '../rpc/types';
import { type ConnectContext, discoverParams } from './steps';

/**
 * What the probe saw: an answer, the stream closing, `abandoned` (given up, or the attempt
 * ended) or `failed` (something that is not a transport error, rethrown by whoever reads it).
 */
export type ProbeOutcome =
  | Exclude<ProbeObservation, { type: 'timeout' }>
  | { type: 'abandoned' }
  | { type: 'failed'; error: unknown };

/** One probe; its outcome never rejects. */
export class Probe {
  /** Settles once, with what the probe saw. */
  readonly outcome: Promise<ProbeOutcome>;
  readonly #controller = new AbortController();
  #current: ProbeOutcome | undefined;

  constructor(context: ConnectContext, connection: RpcConnection, version: string) {
    const { scope } = context;
    const giveUp = () => this.#controller.abort(scope.signal.reason);
    scope.signal.addEventListener('abort', giveUp, { once: true });
    const request = connection.requestRaw('server/discover', discoverParams(context, version), {
      timeoutMs: 0,
      signal: this.#controller.signal,
      cancelOnWire: false,
      // Recorded at delivery, so a response read after this one already sees it.
      onAnswer: (answer) => {
        this.#current = answerOutcome(answer);
      },
    });
    this.outcome = request
      .then(
        (answer) => this.#current ?? answerOutcome(answer),
        (error: unknown): ProbeOutcome => {
          if (this.#controller.signal.aborted) return { type: 'abandoned' };
          // The process exited, or the stream broke: a legacy server may refuse unknown input so.
          return error instanceof LocalError ? { type: 'closed' } : { type: 'failed', error };
        },
      )
      .then((outcome) => {
        scope.signal.removeEventListener('abort', giveUp);
        this.#current ??= outcome;
        return outcome;
      });
  }

  /** The outcome once it is known; an answer is here from the moment it was read. */
  get current(): ProbeOutcome | undefined {
    return this.#current;
  }

  /** The outcome, or `undefined` when it is not there within `ms` (`0`, `Infinity`: no limit). */
  async within(ms: number): Promise<ProbeOutcome | undefined> {
    if (!(ms > 0 && Number.isFinite(ms))) return this.outcome;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    try {
      return await Promise.race([this.outcome, silence]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Gives the probe up: nothing is sent, a late answer is dropped. */
  abandon(): void {
    this.#controller.abort();
  }
}

function answerOutcome(answer: RpcOutcome): ProbeOutcome {
  return answer.type === 'result'
    ? { type: 'result', result: answer.result }
    : { type: 'error', error: answer.error };
}

/** A promise's outcome as a value, so that one nobody awaits in the end never goes unhandled. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Settles `promise` into a {@link Settled}. */
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}
