/**
 * Rules every round of input requests follows, in both eras: the client must have declared
 * each kind of input asked for, and one request may ask only a bounded number of times.
 */
import {
  type ClientCapabilities,
  ErrorCode,
  type InputRequest,
  MissingRequiredClientCapabilityError,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { missingCapabilityFor } from '../core/input-capabilities';

/** Rounds of input one request may take; asking once more fails the request. */
export const MAX_INPUT_ROUNDS = 8;

/**
 * Checks round `round` (1 for the first time a handler asks) of `inputRequests`: past
 * {@link MAX_INPUT_ROUNDS} it is -32603, since the handler, not the client, keeps the loop
 * going; a kind of input the client did not declare is -32021 naming every missing capability.
 */
export function checkInputRound(
  inputRequests: Readonly<Record<string, InputRequest>>,
  declared: ClientCapabilities,
  round: number,
): void {
  if (round > MAX_INPUT_ROUNDS) {
    throw new ProtocolError(
      ErrorCode.InternalError,
      `The handler asked for input more than ${MAX_INPUT_ROUNDS} times`,
      { reason: 'too-many-rounds', maxRounds: MAX_INPUT_ROUNDS },
    );
  }
  const required: Record<string, Record<string, unknown>> = {};
  for (const request of Object.values(inputRequests)) {
    for (const [key, value] of Object.entries(missingCapabilityFor(request, declared) ?? {})) {
      required[key] = { ...required[key], ...(value as Record<string, unknown>) };
    }
  }
  if (Object.keys(required).length > 0) {
    throw new MissingRequiredClientCapabilityError(required as ClientCapabilities);
  }
}
