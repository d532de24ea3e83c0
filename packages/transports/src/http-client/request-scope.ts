/**
 * The lifetime of one HTTP exchange: one abort controller fed by the caller's signal, an idle
 * timer and the transport's close, remembering which of them ended it so that the failure can
 * be named precisely (timeout, abort, close) instead of as a generic network error.
 */
import { LocalError, LocalErrorCode, type RequestId } from '@twofold/protocol/experimental';

/** What an exchange is about, for error messages and `details`. */
export interface ExchangeLabel {
  /** The HTTP method and what it carries, e.g. `POST tools/call`. */
  what: string;
  /** The JSON-RPC method, when the exchange carries a message. */
  method?: string;
  /** The JSON-RPC request id, when the exchange carries a request. */
  id?: RequestId;
}

/** One exchange's abort controller and idle timer. */
export class RequestScope {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reason: LocalError | undefined;
  private readonly unlink: () => void;

  /**
   * @param timeoutMs - longest silence before the exchange is aborted; `undefined` for none.
   * @param callerSignal - aborting it aborts the exchange with `REQUEST_ABORTED`.
   */
  constructor(
    readonly label: ExchangeLabel,
    private readonly timeoutMs: number | undefined,
    callerSignal?: AbortSignal,
  ) {
    const onCallerAbort = () =>
      this.abort(
        new LocalError(LocalErrorCode.RequestAborted, `${label.what} was aborted`, {
          cause: callerSignal?.reason,
          details: this.details(),
        }),
      );
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    this.unlink = () => callerSignal?.removeEventListener('abort', onCallerAbort);
    this.touch();
  }

  /** Aborted when the exchange ends early. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the exchange was aborted, if it was. */
  get failure(): LocalError | undefined {
    return this.reason;
  }

  /** Restarts the idle timer: the peer showed signs of life. */
  touch(): void {
    if (this.timeoutMs === undefined || this.reason !== undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.abort(
        new LocalError(
          LocalErrorCode.RequestTimeout,
          `${this.label.what} timed out after ${this.timeoutMs} ms without activity`,
          { details: { ...this.details(), timeoutMs: this.timeoutMs } },
        ),
      );
    }, this.timeoutMs);
  }

  /** Stops the idle timer until the next `touch`: an open stream that may stay silent. */
  pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Ends the exchange early; the first reason wins. */
  abort(reason: LocalError): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.dispose();
    this.controller.abort(reason);
  }

  /** Releases the timer and the caller's signal; call once the exchange is over. */
  dispose(): void {
    this.pause();
    this.unlink();
  }

  /**
   * The error to surface for something thrown during the exchange: the abort reason when it was
   * aborted, a `LocalError` as is, anything else (a network failure) as `HTTP_ERROR`.
   */
  explain(error: unknown): LocalError {
    if (this.reason !== undefined) return this.reason;
    if (error instanceof LocalError) return error;
    const text = error instanceof Error ? describeNetworkError(error) : String(error);
    return new LocalError(LocalErrorCode.HttpError, `${this.label.what} failed: ${text}`, {
      cause: error,
      details: this.details(),
    });
  }

  /** `method` and `id` of the exchange, for error details. */
  details(): Record<string, unknown> {
    return { method: this.label.method, id: this.label.id };
  }
}

/** Node's fetch reports "fetch failed" and puts the reason (ECONNREFUSED, …) in `cause`. */
function describeNetworkError(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
