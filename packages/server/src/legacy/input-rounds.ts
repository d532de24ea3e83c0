/**
 * Multi-round-trip requests on a legacy session: when a handler needs input, twofold sends the
 * input requests to the client as real JSON-RPC requests and calls the handler again with the
 * answers, up to a bounded number of rounds.
 */
import {
  type ClientCapabilities,
  type InputRequest,
  LocalError,
  LocalErrorCode,
  MissingRequiredClientCapabilityError,
} from '@twofold/protocol/experimental';
import { missingCapabilityFor } from '../serve/input-capabilities';
import type { OperationOutcome } from '../serve/operation-call';

/** Rounds of input one request may take before it fails. */
export const MAX_INPUT_ROUNDS = 8;

/**
 * Runs `attempt` until it produces a result, answering each round's input requests through
 * `ask`. The first attempt gets no responses; each later one gets the previous round's.
 */
export async function runWithInputRounds(
  attempt: (inputResponses: Record<string, unknown> | undefined) => Promise<OperationOutcome>,
  ask: (request: InputRequest) => Promise<Record<string, unknown>>,
  clientCapabilities: ClientCapabilities,
): Promise<Record<string, unknown>> {
  let responses: Record<string, unknown> | undefined;
  for (let round = 0; round <= MAX_INPUT_ROUNDS; round++) {
    const outcome = await attempt(responses);
    if (outcome.kind === 'result') return outcome.result;
    if (round === MAX_INPUT_ROUNDS) break;
    const entries = Object.entries(outcome.input.inputRequests);
    for (const [, request] of entries) {
      const missing = missingCapabilityFor(request, clientCapabilities);
      if (missing !== undefined) throw new MissingRequiredClientCapabilityError(missing);
    }
    // The client answers the round's requests concurrently, as a modern client would.
    const answers = await Promise.all(entries.map(([, request]) => ask(request)));
    responses = Object.fromEntries(entries.map(([key], i) => [key, answers[i]]));
  }
  throw new LocalError(
    LocalErrorCode.TooManyRounds,
    `The handler asked for input more than ${MAX_INPUT_ROUNDS} times`,
  );
}
