/**
 * What happens around one client call, the same in both eras: the cache in front, then the
 * session request, then the rounds of a modern `input_required` answer.
 */
import {
  CACHEABLE_METHODS,
  INPUT_REQUIRED_METHODS,
  LocalError,
  LocalErrorCode,
  ResultType,
  resultTypeOf,
} from '@twofold/protocol/experimental';
import type { ResultCache } from './cache/result-cache';
import type { InputAnswerer } from './input/answerer';
import { runInputRounds } from './input/rounds';
import type { EraSession, SessionRequestOptions } from './session/types';
import type { CacheableRequestOptions, InputRequestOptions, RequestOptions } from './types';

type Params = Record<string, unknown> | undefined;
type Result = Record<string, unknown>;

/** The parts a pipeline works with. */
export interface PipelineParts {
  session: EraSession;
  cache: ResultCache | undefined;
  answerer: InputAnswerer;
  maxInputRounds: number;
  /** Aborted (with a `CONNECTION_CLOSED` reason) when the connection ends. */
  ended: AbortSignal;
}

/** Runs client calls through cache, session and input rounds. */
export class RequestPipeline {
  constructor(private readonly parts: PipelineParts) {}

  /** A request whose result is neither cached nor able to need input. */
  plain<T = Result>(method: string, params: Params, options: RequestOptions): Promise<T> {
    return this.parts.session.request(method, params, sessionOptions(options)) as Promise<T>;
  }

  /** A cacheable request: read the cache (unless bypassed), ask, store. */
  async cached<T = Result>(
    method: string,
    params: Params,
    options: CacheableRequestOptions,
  ): Promise<T> {
    const ask = () => this.plain(method, params, options);
    return (await this.throughCache(method, params, options, ask)) as T;
  }

  /**
   * A request that may answer `input_required`: rounds are run with the handlers, or in manual
   * mode the interim result is returned. Cacheable methods (`resources/read`) use the cache.
   */
  withInput<T = Result>(method: string, params: Params, options: InputRequestOptions): Promise<T> {
    const ask = () => this.askWithInput(method, params, options);
    if (!CACHEABLE_METHODS.has(method) || isResuming(options)) return ask() as Promise<T>;
    return this.throughCache(method, params, options, ask) as Promise<T>;
  }

  /** The first answer decides: most need no rounds (async only so that a throw rejects). */
  private async askWithInput(
    method: string,
    params: Params,
    options: InputRequestOptions,
  ): Promise<Result> {
    const first = isResuming(options)
      ? this.send(method, { ...params, ...resumeFields(options) }, options)
      : this.send(method, params, options);
    return first.then((result) =>
      resultTypeOf(result) !== ResultType.InputRequired ||
      !INPUT_REQUIRED_METHODS.has(method) ||
      options.inputMode === 'manual'
        ? result
        : this.runRounds(method, params, options, result),
    );
  }

  private send(method: string, params: Params, options: InputRequestOptions): Promise<Result> {
    return this.parts.session.request(method, params, sessionOptions(options));
  }

  private async runRounds(
    method: string,
    params: Params,
    options: InputRequestOptions,
    first: Result,
  ): Promise<Result> {
    // Handlers must stop when the caller aborts or the connection ends, whichever comes first.
    const { ended, session } = this.parts;
    const rounds = new AbortController();
    const stop = () => rounds.abort(options.signal?.aborted ? options.signal.reason : ended.reason);
    for (const signal of [options.signal, ended]) {
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
    }
    try {
      return await runInputRounds({
        first,
        retry: (extra) => this.send(method, { ...params, ...extra }, options),
        answerer: this.parts.answerer,
        maxRounds: this.parts.maxInputRounds,
        era: session.verdict.era,
        signal: rounds.signal,
      });
    } catch (error) {
      // Stopped by the end of the connection, not by the caller: report the connection's end.
      if (ended.aborted && !options.signal?.aborted && isAborted(error)) throw ended.reason;
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      ended.removeEventListener('abort', stop);
    }
  }

  private async throughCache(
    method: string,
    params: Params,
    options: CacheableRequestOptions,
    ask: () => Promise<Result>,
  ): Promise<Result> {
    const { cache } = this.parts;
    const mode = options.cache ?? 'use';
    if (!cache || mode === 'bypass') return ask();
    if (mode === 'use') {
      const hit = await cache.get(method, params);
      if (hit) return hit;
    }
    const result = await ask();
    await cache.put(method, params, result);
    return result;
  }
}

function isAborted(error: unknown): boolean {
  return error instanceof LocalError && error.code === LocalErrorCode.RequestAborted;
}

function isResuming(options: InputRequestOptions): boolean {
  return options.inputResponses !== undefined || options.requestState !== undefined;
}

function resumeFields(options: InputRequestOptions): Params {
  const extra: Record<string, unknown> = {};
  if (options.inputResponses) extra.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) extra.requestState = options.requestState;
  return extra;
}

function sessionOptions(options: InputRequestOptions | RequestOptions): SessionRequestOptions {
  const o = options as InputRequestOptions;
  const out: SessionRequestOptions = {};
  if (o.signal) out.signal = o.signal;
  if (o.timeoutMs !== undefined) out.timeoutMs = o.timeoutMs;
  if (o.extensions) out.extensions = o.extensions;
  if (o.trace) out.trace = o.trace;
  if (o.meta) out.meta = o.meta;
  if (o.onProgress) out.onProgress = o.onProgress;
  if (o.resetTimeoutOnProgress !== undefined) out.resetTimeoutOnProgress = o.resetTimeoutOnProgress;
  if (o.maxTotalTimeoutMs !== undefined) out.maxTotalTimeoutMs = o.maxTotalTimeoutMs;
  return out;
}
