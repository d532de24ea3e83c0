/**
 * The client side of multi-round-trip requests (DIGEST §1.8): answer an `input_required`
 * result's `inputRequests` and retry the request until it completes.
 */
import { isRecord, LocalError, LocalErrorCode, resultTypeOf } from '@twofold/protocol/experimental';
import type { InputAnswerer } from './answerer';

/**
 * What a retry adds to the original params: the answers, and the `requestState` echoed
 * byte-exact. Each key is present only when there is something to send.
 */
// A type alias, not an interface, so it stays assignable to `Record<string, unknown>` params.
export type RetryExtra = {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
};

/**
 * Arguments of {@link runInputRounds}.
 */
export interface InputRoundsArgs {
  /** The first result (maybe `input_required`). */
  first: Record<string, unknown>;
  /** Re-sends the original request (under a new id) with `extra` merged into its params. */
  retry: (extra: RetryExtra) => Promise<Record<string, unknown>>;
  answerer: InputAnswerer;
  /** Retries allowed; one more `input_required` after them fails with `TOO_MANY_ROUNDS`. */
  maxRounds: number;
  /** Aborts answering and retrying (`REQUEST_ABORTED`); handlers get it too. */
  signal?: AbortSignal;
  era: 'modern' | 'legacy';
  /** Told about each input request whose answer failed (it is left out of the responses). */
  onAnswerError?: (key: string, method: string, error: unknown) => void;
}

/**
 * Runs input rounds until the result is no longer `input_required` and returns it. The first
 * result is round 0; each retry is one round. Every round answers all `inputRequests` in
 * parallel, leaves out the keys whose answer failed, and retries at once when there were none.
 */
export async function runInputRounds(args: InputRoundsArgs): Promise<Record<string, unknown>> {
  const signal = args.signal ?? new AbortController().signal;
  let result = args.first;
  let rounds = 0;
  while (resultTypeOf(result) === 'input_required') {
    throwIfAborted(signal);
    if (rounds >= args.maxRounds) {
      throw new LocalError(
        LocalErrorCode.TooManyRounds,
        `server still needed input after ${rounds} rounds`,
        { details: { rounds } },
      );
    }
    const extra: RetryExtra = {};
    const requests = result.inputRequests;
    if (isRecord(requests)) {
      extra.inputResponses = await untilAborted(answerAll(requests, args, signal), signal);
    }
    // Byte-exact: the string as received, never re-encoded; absent when none was given.
    if (typeof result.requestState === 'string') extra.requestState = result.requestState;
    rounds++;
    result = await args.retry(extra);
  }
  return result;
}

/**
 * Answers every request of an `inputRequests` map in parallel; the keys whose answer failed are
 * left out (and told to `onAnswerError`). Used by the rounds here and by tasks' `tasks/update`.
 */
export async function answerAll(
  requests: Record<string, unknown>,
  args: Pick<InputRoundsArgs, 'answerer' | 'era' | 'onAnswerError'>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const entries = Object.entries(requests);
  const settled = await Promise.allSettled(
    entries.map(async ([key, request]) => {
      if (!isRecord(request) || typeof request.method !== 'string') {
        throw new LocalError(LocalErrorCode.InvalidResult, `input request ${key} has no method`);
      }
      const params = isRecord(request.params) ? request.params : undefined;
      return args.answerer.answer(request.method, params, { signal, era: args.era });
    }),
  );
  const responses: Record<string, unknown> = {};
  settled.forEach((outcome, index) => {
    const [key, request] = entries[index] as [string, unknown];
    if (outcome.status === 'fulfilled') {
      responses[key] = outcome.value;
    } else {
      const method = isRecord(request) && typeof request.method === 'string' ? request.method : '';
      args.onAnswerError?.(key, method, outcome.reason);
    }
  });
  return responses;
}

function abortedError(signal: AbortSignal): LocalError {
  return new LocalError(LocalErrorCode.RequestAborted, 'request aborted while answering input', {
    cause: signal.reason,
  });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortedError(signal);
}

/** `work`, or `REQUEST_ABORTED` as soon as `signal` aborts: handlers may ignore the signal. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  throwIfAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
