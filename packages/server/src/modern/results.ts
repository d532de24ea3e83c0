/** The modern shape of results: `resultType`, `serverInfo` in `_meta`, and cache hints. */
import { ErrorCode, ProtocolError, withServerInfo } from '@twofold/protocol/experimental';
import type { CachePolicy, InputRequired } from '../api';
import type { ServedServer } from '../serve/served-server';

/** A complete result: `resultType`, `serverInfo`, and the cache hints of cacheable methods. */
export function completeModernResult(
  server: ServedServer,
  result: Record<string, unknown>,
  cache: CachePolicy | undefined,
): Record<string, unknown> {
  const complete: Record<string, unknown> = { ...result, resultType: 'complete' };
  if (cache !== undefined) {
    complete.ttlMs = cache.ttlMs;
    complete.cacheScope = cache.cacheScope;
  }
  return withServerInfo(complete, server.serverInfo);
}

/**
 * An operation needs input from the client. Answering `input_required` needs a sealed
 * `requestState`, which this dispatcher does not produce: the request fails instead of
 * handing the client an unprotected state.
 */
export function inputRequiredResult(
  _server: ServedServer,
  method: string,
  _input: InputRequired,
): Record<string, unknown> {
  throw new ProtocolError(
    ErrorCode.InternalError,
    `${method} needs input from the client (multi round-trip requests), which this server does not support on modern requests`,
  );
}
