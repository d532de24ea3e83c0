/** The modern shape of results: `resultType`, `serverInfo` in `_meta`, and cache hints. */
import { type ClientCapabilities, withServerInfo } from '@twofold/protocol/experimental';
import type { CachePolicy, InputRequired } from '../api';
import type { ServedServer } from '../core/served-server';
import { askedOf } from '../mrtr/input-responses';
import { bindingOf, requestStateCodecOf } from '../mrtr/modern-state';
import { checkInputRound } from '../mrtr/rounds';

/** A complete result: `resultType`, `serverInfo`, and the cache hints of cacheable methods. */
export function completeModernResult(
  server: ServedServer,
  result: Record<string, unknown>,
  cache: CachePolicy | undefined,
): Record<string, unknown> {
  // One copy of the result on the hot path of every modern answer, completed in place.
  const complete: Record<string, unknown> = withServerInfo(result, server.serverInfo);
  complete.resultType = 'complete';
  if (cache !== undefined) {
    complete.ttlMs = cache.ttlMs;
    complete.cacheScope = cache.cacheScope;
  }
  return complete;
}

/** The request an operation asked input for. */
export interface AskingRequest {
  method: string;
  /** Its validated params; the state is bound to them. */
  params: Record<string, unknown> | undefined;
  clientCapabilities: ClientCapabilities;
  /** The authenticated caller the state is bound to (`principalOf`), if any. */
  principal?: string | undefined;
}

/**
 * An operation needs input from the client: an `input_required` result whose `requestState`
 * seals the handler's state for round `round`, bound to the request, with what it asks (so
 * the answers can be checked on the retry). It always carries a state (the round count and
 * the binding live there) and never cache hints: it is not cached.
 */
export async function inputRequiredResult(
  server: ServedServer,
  request: AskingRequest,
  input: InputRequired,
  round: number,
): Promise<Record<string, unknown>> {
  checkInputRound(input.inputRequests, request.clientCapabilities, round);
  const requestState = await requestStateCodecOf(server).seal(
    bindingOf(request.method, request.params, request.principal),
    input.state,
    round,
    askedOf(input.inputRequests),
  );
  const result: Record<string, unknown> = { resultType: 'input_required' };
  // An empty map says nothing; a state-only answer asks the client to retry at once.
  if (Object.keys(input.inputRequests).length > 0) result.inputRequests = input.inputRequests;
  result.requestState = requestState;
  return withServerInfo(result, server.serverInfo);
}
