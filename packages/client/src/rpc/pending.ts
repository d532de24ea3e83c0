/**
 * One outgoing request while it waits for its response: its timers, its caller's abort signal
 * and its progress and listen routing. It settles exactly once, and settling clears everything
 * it armed, so no timer or listener outlives it.
 */
import {
  type JsonRpcNotification,
  LocalError,
  LocalErrorCode,
  RequestIdMap,
} from '@twofold/protocol/experimental';
import type { Progress } from '../types';
import type { RpcOutcome } from './types';

// setTimeout fires at once for delays past 2^31-1 ms; longer timeouts are clamped.
const MAX_TIMER_MS = 2_147_483_647;

/** Why a pending request was given up on this side. */
export type AbandonReason = 'timeout' | 'abort';

/** What a {@link PendingRequest} needs to know. */
export interface PendingInit {
  id: number;
  method: string;
  /** `undefined`: no timeout. */
  timeoutMs: number | undefined;
  /** `undefined`: no hard limit. */
  maxTotalTimeoutMs: number | undefined;
  resetTimeoutOnProgress: boolean;
  signal: AbortSignal | undefined;
  progressToken: string | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  onTagged: ((notification: JsonRpcNotification) => void) | undefined;
  resolve: (outcome: RpcOutcome) => void;
  reject: (error: Error) => void;
  /** Runs after a timeout or abort has rejected the request, to cancel it on the wire. */
  onAbandon: (pending: PendingRequest, reason: AbandonReason, message: string) => void;
  /** Runs once when the request settles in any way (the table drops it). */
  onSettled: (pending: PendingRequest) => void;
}

/**
 * Normalises a timeout option: `0`, `Infinity`, negative or non-numbers mean none.
 */
export function effectiveTimeout(ms: number | undefined): number | undefined {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return undefined;
  return Math.min(ms, MAX_TIMER_MS);
}

/** A request waiting for its response. */
export class PendingRequest {
  readonly id: number;
  readonly method: string;
  readonly progressToken: string | undefined;
  #exchange: AbortController | undefined;
  /** An oversized message dropped from this request's own response stream (HTTP). */
  droppedOversized: LocalError | undefined;
  readonly #init: PendingInit;
  #settled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #hardTimer: ReturnType<typeof setTimeout> | undefined;
  #abortListener: (() => void) | undefined;

  constructor(init: PendingInit) {
    this.#init = init;
    this.id = init.id;
    this.method = init.method;
    this.progressToken = init.progressToken;
  }

  /**
   * Aborted when the request is abandoned under the `abortExchange` policy; made on first use,
   * so that requests on transports without that policy never pay for one.
   */
  get exchange(): AbortController {
    this.#exchange ??= new AbortController();
    return this.#exchange;
  }

  /** Whether the request has settled. */
  get settled(): boolean {
    return this.#settled;
  }

  /** Where tagged listen-stream notifications for this request go, if anywhere. */
  get onTagged(): ((notification: JsonRpcNotification) => void) | undefined {
    return this.#init.onTagged;
  }

  /** Arms the timers and the abort listener; an already aborted signal rejects at once. */
  arm(): void {
    const { signal, maxTotalTimeoutMs } = this.#init;
    if (signal?.aborted) {
      this.#abandon('abort');
      return;
    }
    if (signal !== undefined) {
      this.#abortListener = () => this.#abandon('abort');
      signal.addEventListener('abort', this.#abortListener, { once: true });
    }
    this.#armTimeout();
    const hard = effectiveTimeout(maxTotalTimeoutMs);
    if (hard !== undefined)
      this.#hardTimer = setTimeout(() => this.#abandon('timeout', hard, true), hard);
  }

  /** Settles with a response. */
  resolve(outcome: RpcOutcome): void {
    if (this.#finish()) this.#init.resolve(outcome);
  }

  /** Settles with an error (send failure, connection closed). */
  reject(error: Error): void {
    if (this.#finish()) this.#init.reject(error);
  }

  /** Delivers progress while pending; may restart the timeout. */
  progress(progress: Progress): void {
    if (this.#settled) return;
    if (this.#init.resetTimeoutOnProgress) this.#armTimeout();
    this.#init.onProgress?.(progress);
  }

  #armTimeout(): void {
    clearTimeout(this.#timer);
    const ms = effectiveTimeout(this.#init.timeoutMs);
    if (ms !== undefined) this.#timer = setTimeout(() => this.#abandon('timeout', ms), ms);
  }

  #abandon(reason: AbandonReason, ms?: number, total = false): void {
    const { method, signal } = this.#init;
    const error =
      reason === 'timeout'
        ? new LocalError(
            LocalErrorCode.RequestTimeout,
            total
              ? `Request ${method} ran past its maximum total time of ${ms} ms`
              : `Request ${method} timed out after ${ms} ms`,
            {
              details: total
                ? { method, timeoutMs: ms, maxTotalTimeoutMs: ms }
                : { method, timeoutMs: ms },
            },
          )
        : new LocalError(LocalErrorCode.RequestAborted, `Request ${method} was aborted`, {
            cause: signal?.reason,
            details: { method },
          });
    if (!this.#finish()) return;
    this.#init.reject(error);
    this.#init.onAbandon(this, reason, error.message);
  }

  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#hardTimer);
    if (this.#abortListener !== undefined) {
      this.#init.signal?.removeEventListener('abort', this.#abortListener);
    }
    this.#init.onSettled(this);
    return true;
  }
}

/** The pending requests of one connection, by id and by progress token. */
export class PendingTable {
  readonly #byId = new RequestIdMap<PendingRequest>();
  readonly #byToken = new Map<string, PendingRequest>();
  // Ids given up by timeout or abort: their late responses are expected, not peer errors.
  readonly #abandoned = new Set<number>();
  readonly #maxAbandoned: number;

  constructor(maxAbandoned = 1024) {
    this.#maxAbandoned = maxAbandoned;
  }

  get size(): number {
    return this.#byId.size;
  }

  add(pending: PendingRequest): void {
    this.#byId.set(pending.id, pending);
    if (pending.progressToken !== undefined) this.#byToken.set(pending.progressToken, pending);
  }

  get(id: unknown): PendingRequest | undefined {
    return typeof id === 'number' ? this.#byId.get(id) : undefined;
  }

  byToken(token: unknown): PendingRequest | undefined {
    return typeof token === 'string' ? this.#byToken.get(token) : undefined;
  }

  /** Drops a settled request from the table. */
  remove(pending: PendingRequest): void {
    if (this.#byId.get(pending.id) === pending) this.#byId.delete(pending.id);
    if (pending.progressToken !== undefined && this.#byToken.get(pending.progressToken) === pending)
      this.#byToken.delete(pending.progressToken);
  }

  /** Remembers an abandoned id so that its one late response is ignored quietly. */
  markAbandoned(id: number): void {
    this.#abandoned.add(id);
    if (this.#abandoned.size > this.#maxAbandoned) {
      const oldest = this.#abandoned.values().next().value;
      if (oldest !== undefined) this.#abandoned.delete(oldest);
    }
  }

  /** Whether `id` was abandoned and has not had its late response yet (consumes the mark). */
  takeAbandoned(id: unknown): boolean {
    return typeof id === 'number' && this.#abandoned.delete(id);
  }

  /** Every pending request (a copy, so settling while iterating is safe). */
  all(): PendingRequest[] {
    return this.#byId.values();
  }
}
