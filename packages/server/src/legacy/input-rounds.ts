/**
 * Multi-round-trip requests on a legacy session: when a handler needs input, twofold sends the
 * input requests to the client as real JSON-RPC requests and calls the handler again with the
 * answers and its own state (kept in memory), up to a bounded number of rounds.
 */
import type { ClientCapabilities, InputRequest } from '@twofold/protocol/experimental';
import { checkInputRound } from '../mrtr/rounds';
import type { OperationOutcome } from '../serve/operation-call';

/**
 * Runs `attempt` until it produces a result, answering each round's input requests through
 * `ask`. The first attempt gets no responses and no state; each later one gets the previous
 * round's answers and the state the handler put on its `InputRequired`.
 */
export async function runWithInputRounds(
  attempt: (
    inputResponses: Record<string, unknown> | undefined,
    state: unknown,
  ) => Promise<OperationOutcome>,
  ask: (request: InputRequest) => Promise<Record<string, unknown>>,
  clientCapabilities: ClientCapabilities,
): Promise<Record<string, unknown>> {
  let responses: Record<string, unknown> | undefined;
  let state: unknown;
  for (let round = 1; ; round++) {
    const outcome = await attempt(responses, state);
    if (outcome.kind === 'result') return outcome.result;
    checkInputRound(outcome.input.inputRequests, clientCapabilities, round);
    const entries = Object.entries(outcome.input.inputRequests);
    // The client answers the round's requests concurrently, as a modern client would.
    const answers = await Promise.all(entries.map(([, request]) => ask(request)));
    responses = Object.fromEntries(entries.map(([key], i) => [key, answers[i]]));
    state = outcome.input.state;
  }
}
