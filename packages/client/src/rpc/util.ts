/**
 * Small helpers of the RPC layer: message shaping and error construction.
 */
import { isRecord, LocalError, LocalErrorCode, META_KEYS } from '@twofold/protocol/experimental';
import type { Progress } from '../types';

/** Copies params with `_meta.progressToken` set; the caller's object is never changed. */
export function withProgressToken(
  params: Record<string, unknown> | undefined,
  token: string | undefined,
): Record<string, unknown> | undefined {
  if (token === undefined) return params;
  const meta = isRecord(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [META_KEYS.progressToken]: token } };
}

/** Reads a `notifications/progress` payload; `undefined` when `progress` is not a number. */
export function progressOf(params: Record<string, unknown> | undefined): Progress | undefined {
  if (params === undefined || typeof params.progress !== 'number') return undefined;
  const progress: Progress = { progress: params.progress };
  if (typeof params.total === 'number') progress.total = params.total;
  if (typeof params.message === 'string') progress.message = params.message;
  return progress;
}

/**
 * The error for work cut short by a close: the transport's own LocalError code when it gave one
 * (e.g. PROCESS_EXITED, with its details copied), else CONNECTION_CLOSED.
 */
export function closedErrorFor(what: string, source: Error | undefined): LocalError {
  if (source instanceof LocalError && source.code !== LocalErrorCode.ConnectionClosed) {
    return new LocalError(source.code, `${what} failed: ${source.message}`, {
      cause: source,
      details: source.details === undefined ? undefined : { ...source.details },
    });
  }
  return new LocalError(LocalErrorCode.ConnectionClosed, `${what} failed: the connection closed`, {
    cause: source,
  });
}
