/**
 * One upstream call as it crosses the bridge, possibly over several downstream rounds. The
 * upstream request stays open for the whole call; each downstream request (a round) waits for
 * its outcome, or for input requests the upstream sent meanwhile (a legacy server's
 * elicitation or sampling), which the round hands downstream as `InputRequired`. The retry that
 * answers them resumes the call, found by the id carried in the `InputRequired` state.
 */
import type { Progress } from '@twofold/client/experimental';
import {
  type ClientCapabilities,
  ErrorCode,
  type InputRequest,
  isRecord,
  LocalError,
  LocalErrorCode,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { InputRequired, type RequestContext } from '@twofold/server/experimental';

/** What the bridge hands the function that starts the upstream request. */
export interface UpstreamControls {
  /** Aborted when the call is cancelled: the client then cancels upstream. */
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

/** Starts the upstream request; resolves with its result (maybe a modern `input_required`). */
export type UpstreamStart = (controls: UpstreamControls) => Promise<object>;

/** The `InputRequired` state naming a call still pending upstream. */
export interface PendingCallState {
  call: string;
}

/** An input request of the upstream server, waiting for a downstream answer. */
interface Ask {
  request: InputRequest;
  /** Whether a round has handed it downstream already. */
  sent: boolean;
  resolve(answer: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Outcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: unknown };

const KEY_PREFIX: Readonly<Record<InputRequest['method'], string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** One bridged call; see the file comment. */
export class BridgedCall {
  readonly id = crypto.randomUUID();
  /** Capabilities of the latest round's downstream client: what it can be asked for. */
  capabilities: ClientCapabilities;
  private readonly upstream = new AbortController();
  private readonly asks = new Map<string, Ask>();
  private askCount = 0;
  private outcome: Outcome | undefined;
  /** The downstream request being served, if any (none while waiting for a retry). */
  private round: RequestContext | undefined;
  private wake: (() => void) | undefined;
  /** Ends the wait for a retry: clears its timer and its cancel listener. */
  private unpark: (() => void) | undefined;
  private ended = false;

  constructor(
    first: RequestContext,
    private readonly parkMs: number,
    private readonly onEnd: (call: BridgedCall) => void,
  ) {
    this.capabilities = first.clientCapabilities;
  }

  /** Sends the upstream request. */
  begin(start: UpstreamStart): void {
    const controls: UpstreamControls = {
      signal: this.upstream.signal,
      // Progress only reaches a downstream request still open; a misbehaving upstream's
      // non-increasing progress is dropped rather than failing the round.
      onProgress: ({ progress, total, message }) =>
        void this.round?.progress(progress, total, message).catch(() => undefined),
    };
    start(controls).then(
      (result) => this.settle({ ok: true, result: result as Record<string, unknown> }),
      (error: unknown) => this.settle({ ok: false, error }),
    );
  }

  /**
   * Serves one downstream round: delivers the answers it carries, then resolves with the
   * upstream result, or with `InputRequired` once the upstream asks for input. The round's
   * cancellation cancels the whole call upstream.
   */
  async runRound(context: RequestContext): Promise<Record<string, unknown> | InputRequired> {
    this.resume(context);
    for (;;) {
      if (this.outcome !== undefined) {
        this.end();
        if (this.outcome.ok) return this.outcome.result;
        throw upstreamFailure(this.outcome.error);
      }
      if (context.signal.aborted) {
        this.cancel('The downstream request was cancelled');
        // Never sent (a cancelled request gets no answer); a protocol error is no fault to report.
        throw new ProtocolError(ErrorCode.InternalError, 'The downstream request was cancelled');
      }
      if (this.hasUnsentAsks()) {
        // Requests a server sends together should make one round, not one round each.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (this.outcome === undefined && !context.signal.aborted) return this.park();
        continue;
      }
      await this.news(context.signal);
    }
  }

  /** An upstream input request attributed to this call: resolves with the downstream answer. */
  offer(request: InputRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (this.ended) {
        reject(new ProtocolError(ErrorCode.InternalError, 'The bridged call has ended'));
        return;
      }
      const key = `${KEY_PREFIX[request.method]}-${++this.askCount}`;
      // The upstream gave up on its request: withdraw it (its answer will be ignored).
      const onAbort = () => {
        this.asks.delete(key);
        reject(new LocalError(LocalErrorCode.RequestAborted, 'The upstream withdrew its request'));
      };
      const settled = () => signal.removeEventListener('abort', onAbort);
      this.asks.set(key, {
        request,
        sent: false,
        resolve: (answer) => {
          settled();
          resolve(answer);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.wakeRound();
    });
  }

  /** Whether the upstream is waiting for an answer from this call's downstream client. */
  get awaitingInput(): boolean {
    return this.asks.size > 0;
  }

  /** Forwards an upstream log message to the open round (which applies its own threshold). */
  log(params: Record<string, unknown>): void {
    const level = params.level as Parameters<RequestContext['log']>[0];
    const logger = typeof params.logger === 'string' ? params.logger : undefined;
    void this.round?.log(level, params.data, logger).catch(() => undefined);
  }

  /** Cancels the upstream request and ends the call. */
  cancel(reason: string): void {
    this.upstream.abort(new LocalError(LocalErrorCode.RequestAborted, reason));
    this.end();
  }

  private resume(context: RequestContext): void {
    this.unpark?.();
    this.round = context;
    this.capabilities = context.clientCapabilities;
    const answers = context.inputResponses ?? {};
    for (const [key, ask] of this.asks) {
      if (!ask.sent) continue;
      this.asks.delete(key);
      const answer = answers[key];
      if (isRecord(answer)) ask.resolve(answer);
      // The downstream client could not answer (its handler failed): the upstream hears so.
      else ask.reject(new ProtocolError(ErrorCode.InternalError, `No answer came for ${key}`));
    }
  }

  /** Hands the unsent input requests downstream and waits for the retry (bounded). */
  private park(): InputRequired {
    const inputRequests: Record<string, InputRequest> = {};
    for (const [key, ask] of this.asks) {
      if (ask.sent) continue;
      ask.sent = true;
      inputRequests[key] = ask.request;
    }
    // A legacy downstream session keeps one request across its rounds: its cancel (or the
    // session's end) cancels the call. A modern request's signal never fires once answered.
    const signal = this.round?.signal;
    const onAbort = () => this.cancel('The downstream request was cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => this.cancel('No downstream answer came for the input requests'),
      this.parkMs,
    );
    // A call nobody answers must not keep the process alive.
    timer.unref?.();
    this.unpark = () => {
      this.unpark = undefined;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    this.round = undefined;
    const state: PendingCallState = { call: this.id };
    return new InputRequired(inputRequests, state);
  }

  private hasUnsentAsks(): boolean {
    for (const ask of this.asks.values()) if (!ask.sent) return true;
    return false;
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    this.wakeRound();
  }

  /** Resolves at the next change: an outcome, an input request, or the round's cancellation. */
  private news(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  private wakeRound(): void {
    this.wake?.();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.unpark?.();
    this.round = undefined;
    const error = new ProtocolError(ErrorCode.InternalError, 'The bridged call has ended');
    for (const ask of this.asks.values()) ask.reject(error);
    this.asks.clear();
    this.onEnd(this);
  }
}

/**
 * The downstream error for an upstream failure: the upstream's own JSON-RPC error as it is,
 * and a local failure (the server exited, the connection dropped) as -32603 saying what
 * happened, since the bridge has nothing to hide about its upstream.
 */
function upstreamFailure(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  if (error instanceof LocalError) {
    return new ProtocolError(ErrorCode.InternalError, `Upstream: ${error.message}`, {
      code: error.code,
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}
