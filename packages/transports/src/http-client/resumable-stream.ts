/**
 * Following a legacy SSE stream across reconnections (2025-06-18 / 2025-11-25 resumability):
 * after a stream ends or breaks, wait (the server's `retry`, else exponential backoff), GET
 * again with `Last-Event-ID`, and go on reading, until the reader is satisfied, the exchange is
 * aborted, or too many attempts in a row fail.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { type ResolvedReconnect, reconnectDelay } from './options';
import type { RequestScope } from './request-scope';
import type { SseConsumeResult } from './sse-consumer';

/** How following a stream ended. */
export type FollowEnd =
  /** The reader stopped reading: it got what it waited for. */
  | { kind: 'done' }
  /** The exchange was aborted (closed, timed out, cancelled); see its scope. */
  | { kind: 'aborted' }
  /** The stream cannot be continued. */
  | { kind: 'failed'; error: LocalError };

/** What {@link followStream} needs from the transport. */
export interface FollowOptions {
  scope: RequestScope;
  reconnect: ResolvedReconnect;
  /** The server's latest `retry:` value, read at each wait. */
  serverRetryMs: () => number | undefined;
  /** GETs the stream again from `lastEventId`; `undefined` when the server answers 405. */
  connect: (lastEventId: string) => Promise<ReadableStream<Uint8Array> | undefined>;
  /** Reads one connection's stream. */
  read: (body: ReadableStream<Uint8Array>, lastEventId: string) => Promise<SseConsumeResult>;
  /** Added to the `details` of the errors raised here (e.g. the request id). */
  details?: Record<string, unknown> | undefined;
}

/**
 * Reads `first` (when given; else starts by reconnecting), then keeps reconnecting from the last
 * event id as long as the stream should go on.
 */
export async function followStream(
  options: FollowOptions,
  lastEventId: string,
  first?: ReadableStream<Uint8Array>,
): Promise<FollowEnd> {
  const { scope, reconnect } = options;
  const details = (from: string) => ({ ...scope.details(), ...options.details, lastEventId: from });
  let body = first;
  let resumeFrom = lastEventId;
  let failures = 0;
  let lastFailure: LocalError | undefined;
  for (;;) {
    if (body !== undefined) {
      const result = await options.read(body, resumeFrom);
      body = undefined;
      resumeFrom = result.lastEventId;
      if (result.stopped) return { kind: 'done' };
    }
    if (scope.signal.aborted) return { kind: 'aborted' };
    if (failures >= reconnect.maxRetries) {
      return {
        kind: 'failed',
        error: new LocalError(
          LocalErrorCode.ConnectionClosed,
          `${scope.label.what}: stream lost; gave up after ${failures} failed reconnection attempts`,
          { cause: lastFailure, details: details(resumeFrom) },
        ),
      };
    }
    const delay = reconnectDelay(failures, options.serverRetryMs(), reconnect);
    if (!(await sleep(delay, scope.signal))) return { kind: 'aborted' };
    try {
      body = await options.connect(resumeFrom);
      if (body === undefined) {
        return {
          kind: 'failed',
          error: new LocalError(
            LocalErrorCode.ConnectionClosed,
            `${scope.label.what}: stream lost and the server offers no GET stream to resume it (HTTP 405)`,
            { details: details(resumeFrom) },
          ),
        };
      }
      failures = 0;
    } catch (error) {
      if (scope.signal.aborted) return { kind: 'aborted' };
      lastFailure = scope.explain(error);
      // Retrying cannot help a session that is gone or credentials that are refused.
      const fatal =
        lastFailure.code === LocalErrorCode.SessionExpired ||
        lastFailure.code === LocalErrorCode.Unauthorized;
      if (fatal) return { kind: 'failed', error: lastFailure };
      failures++;
    }
  }
}

/** Waits `ms`; resolves `false` early when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
