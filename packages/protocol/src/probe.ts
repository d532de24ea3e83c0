/**
 * Classification of a dual-era client's probe (DIGEST §4.2, §2.1): the first modern request
 * decides whether a server is modern, needs another version, is legacy, or failed. Pure
 * functions; the client performs the I/O.
 */
import {
  ErrorCode,
  type ErrorObject,
  LocalErrorCode,
  ProtocolError,
  UnsupportedProtocolVersionError,
} from './errors';
import { isRecord } from './util';
import {
  LEGACY_VERSIONS,
  type LegacyVersion,
  MODERN_VERSIONS,
  type ModernVersion,
  selectMutualVersion,
} from './versions';

/**
 * What came back from a probe on stdio (or any message stream).
 *
 * @experimental
 */
export type ProbeObservation =
  | { type: 'result'; result: unknown }
  | { type: 'error'; error: ErrorObject }
  /** Nothing came back within the probe timeout. */
  | { type: 'timeout' }
  /** The process exited or the stream closed before an answer. */
  | { type: 'closed' };

/**
 * What to do next.
 *
 * @experimental
 */
export type ProbeVerdict =
  /** The server is modern and accepted `version`. */
  | { verdict: 'modern'; version: string; result?: unknown; error?: ErrorObject }
  /**
   * The server is modern and named a version to use: retry once with `version` (which may be
   * the one just sent). The caller bounds the retries.
   */
  | { verdict: 'retry'; version: ModernVersion }
  /**
   * The server is legacy: run `initialize` (with `version` when the server named one). `fresh`
   * asks for a new process or connection first, because a late answer to the probe could
   * otherwise land in the legacy session.
   */
  | { verdict: 'legacy'; fresh: boolean; version?: LegacyVersion }
  | { verdict: 'error'; code: LocalErrorCode; reason: string };

/**
 * The versions a probe is judged against.
 *
 * @experimental
 */
export interface ProbeOptions {
  /** The modern version the probe named. */
  requested: string;
  /** Modern versions the client supports, newest first. */
  modern?: readonly ModernVersion[];
  /** Legacy versions the client supports, newest first. */
  legacy?: readonly LegacyVersion[];
}

/**
 * Classifies the answer to a `server/discover` probe on stdio.
 *
 * @experimental
 */
export function classifyStdioProbe(
  observation: ProbeObservation,
  options: ProbeOptions,
): ProbeVerdict {
  switch (observation.type) {
    case 'result':
      return isDiscoverResult(observation.result)
        ? { verdict: 'modern', version: options.requested, result: observation.result }
        : { verdict: 'legacy', fresh: false };
    case 'error':
      return classifyProbeError(observation.error, options) ?? { verdict: 'legacy', fresh: false };
    default:
      return { verdict: 'legacy', fresh: true };
  }
}

/**
 * What came back from an HTTP probe POST.
 *
 * @experimental
 */
export type HttpProbeObservation =
  /** A response; `body` is the parsed JSON-RPC message when the body held one. */
  | { type: 'response'; status: number; body?: unknown }
  | { type: 'timeout' }
  | { type: 'network-error'; message: string };

/**
 * Classifies the answer to a modern HTTP POST: 2xx is modern (unless a plain JSON-RPC error
 * shows a legacy server); 400/404 with a recognised modern error is modern; 401/403 are
 * authorization failures, never era evidence; other 4xx means legacy; 5xx, timeouts and
 * network failures are errors, not fallbacks.
 *
 * @experimental
 */
export function classifyHttpProbe(
  observation: HttpProbeObservation,
  options: ProbeOptions,
): ProbeVerdict {
  if (observation.type === 'timeout') {
    return { verdict: 'error', code: LocalErrorCode.RequestTimeout, reason: 'probe timed out' };
  }
  if (observation.type === 'network-error') {
    return { verdict: 'error', code: LocalErrorCode.HttpError, reason: observation.message };
  }
  const { status, body } = observation;
  if (status === 401 || status === 403) {
    return { verdict: 'error', code: LocalErrorCode.Unauthorized, reason: `HTTP ${status}` };
  }
  if (status >= 500)
    return { verdict: 'error', code: LocalErrorCode.HttpError, reason: `HTTP ${status}` };
  const error = errorOf(body);
  if (status >= 200 && status < 300) {
    if (error) return classifyProbeError(error, options) ?? { verdict: 'legacy', fresh: false };
    const result = isRecord(body) ? body.result : undefined;
    return isDiscoverResult(result)
      ? { verdict: 'modern', version: options.requested, result }
      : { verdict: 'legacy', fresh: false };
  }
  if ((status === 400 || status === 404) && error) {
    const modern = classifyProbeError(error, options);
    if (modern) return modern;
    const recognised =
      error.code === ErrorCode.HeaderMismatch ||
      error.code === ErrorCode.MissingRequiredClientCapability ||
      (error.code === ErrorCode.MethodNotFound && status === 404);
    if (recognised) return { verdict: 'modern', version: options.requested, error };
  }
  if (status >= 400 && status < 500) return { verdict: 'legacy', fresh: false };
  return { verdict: 'error', code: LocalErrorCode.HttpError, reason: `unexpected HTTP ${status}` };
}

/**
 * After a legacy `initialize` POST failed with `status`: 400/404/405 mean the server may be a
 * 2024-11-05 HTTP+SSE server (GET the URL and wait for an `endpoint` event).
 *
 * @experimental
 */
export function classifyLegacyInitializeStatus(
  status: number,
): 'http+sse' | 'unauthorized' | 'error' {
  if (status === 400 || status === 404 || status === 405) return 'http+sse';
  if (status === 401 || status === 403) return 'unauthorized';
  return 'error';
}

/** -32022 is the one error that proves a modern server on any transport. */
function classifyProbeError(error: ErrorObject, options: ProbeOptions): ProbeVerdict | undefined {
  const rejection = ProtocolError.fromErrorObject(error);
  if (!(rejection instanceof UnsupportedProtocolVersionError)) return undefined;
  const { supported } = rejection;
  const modern = selectMutualVersion(supported, options.modern ?? MODERN_VERSIONS);
  // Even the very version just sent is retried (the server may have rejected something else
  // about the request, e.g. a missing header): the caller allows one retry, so it cannot loop.
  if (modern) return { verdict: 'retry', version: modern };
  // A dual-era server may list only legacy versions we share: use the legacy handshake then.
  const legacy = selectMutualVersion(supported, options.legacy ?? LEGACY_VERSIONS);
  if (legacy) return { verdict: 'legacy', fresh: false, version: legacy };
  return {
    verdict: 'error',
    code: LocalErrorCode.NoMutualVersion,
    reason: `no mutually supported version (server supports: ${supported.join(', ') || 'none'})`,
  };
}

function isDiscoverResult(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.supportedVersions) && isRecord(value.capabilities);
}

function errorOf(body: unknown): ErrorObject | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message } = body.error;
  return typeof code === 'number' && typeof message === 'string'
    ? (body.error as unknown as ErrorObject)
    : undefined;
}
