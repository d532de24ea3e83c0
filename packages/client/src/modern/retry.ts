/**
 * Retrying modern requests whose HTTP exchange failed. A modern request carries everything it
 * needs, so any replica behind a load balancer may answer the retry. A request that may have
 * run is sent again only when running it twice is harmless; one that provably never arrived
 * (connection refused, 503) is always sent again.
 */
import { LocalError, LocalErrorCode, type Tool } from '@twofold/protocol/experimental';
import type { RetryPolicy } from '../types';

const DEFAULT_ATTEMPTS = 2;
const DEFAULT_DELAY_MS = 100;

/** Statuses of a proxy or server that did not get an answer from (or could not run) the request. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Methods that only read, or whose repetition changes nothing more (`tasks/cancel`). */
const REPEATABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'tasks/get',
  'tasks/cancel',
]);

/**
 * Whether running the request twice is harmless: a method in the list above, or a call of a
 * tool (as last listed) that says it only reads or is idempotent.
 */
export function isRepeatable(
  method: string,
  params: Record<string, unknown> | undefined,
  toolNamed: (name: string) => Tool | undefined,
): boolean {
  if (REPEATABLE_METHODS.has(method)) return true;
  if (method !== 'tools/call' || typeof params?.name !== 'string') return false;
  const hints = toolNamed(params.name)?.annotations;
  return hints?.readOnlyHint === true || hints?.idempotentHint === true;
}

/** Whether `error` is an exchange failure worth another attempt, given what a repeat risks. */
export function shouldRetry(error: unknown, repeatable: boolean): boolean {
  if (!(error instanceof LocalError) || error.code !== LocalErrorCode.HttpError) return false;
  const status = error.details?.status;
  if (status === 503 || refusedConnection(error)) return true;
  if (!repeatable) return false;
  // No status: the exchange broke before or while the answer came (a reset, a dropped stream).
  return status === undefined || (typeof status === 'number' && GATEWAY_STATUSES.has(status));
}

/**
 * Runs `attempt` and, while it fails with an error `shouldRetry` accepts, again after a growing
 * pause (aborted with `signal`). The last failure goes to the caller.
 */
export function withRetries<T>(
  policy: RetryPolicy | false | undefined,
  repeatable: () => boolean,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  const attempts = policy === false ? 0 : (policy?.attempts ?? DEFAULT_ATTEMPTS);
  const first = attempt();
  // The common case, a first attempt that succeeds, costs no extra async frame.
  if (attempts === 0) return first;
  return first.catch(async (error: unknown) => {
    let failure = error;
    let delayMs = policy === false ? 0 : (policy?.delayMs ?? DEFAULT_DELAY_MS);
    for (let retry = 0; ; retry++) {
      if (retry >= attempts || signal?.aborted || !shouldRetry(failure, repeatable())) {
        throw failure;
      }
      await pause(delayMs, signal);
      delayMs *= 2;
      try {
        return await attempt();
      } catch (next) {
        failure = next;
      }
    }
  });
}

/** The cause chain names ECONNREFUSED: nothing was sent. */
function refusedConnection(error: Error): boolean {
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
