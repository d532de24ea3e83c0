/**
 * Multi-round-trip requests on a legacy session: when a handler needs input, twofold sends the
 * input requests to the client as real JSON-RPC requests and calls the handler again with the
 * answers, what was asked (to check them) and its own state (kept in memory), up to a bounded
 * number of rounds.
 */
import type { ClientCapabilities, InputRequest } from '@twofold/protocol/experimental';
import type { OperationOutcome } from '../core/operation-call';
import { type AskedInput, askedOf } from '../mrtr/input-responses';
import { checkInputRound } from '../mrtr/rounds';

/** What an attempt carries over from the previous round (nothing on the first). */
export interface LegacyRetry {
  inputResponses: Record<string, unknown> | undefined;
  state: unknown;
  asked: Readonly<Record<string, AskedInput>>;
}

/**
 * Runs `attempt` until it produces a result, answering each round's input requests through
 * `ask`. The first attempt gets no responses and no state; each later one gets the previous
 * round's answers, what it asked, and the state the handler put on its `InputRequired`.
 */
export async function runWithInputRounds(
  attempt: (retry: LegacyRetry) => Promise<OperationOutcome>,
  ask: (request: InputRequest) => Promise<Record<string, unknown>>,
  clientCapabilities: ClientCapabilities,
): Promise<Record<string, unknown>> {
  let retry: LegacyRetry = { inputResponses: undefined, state: undefined, asked: {} };
  for (let round = 1; ; round++) {
    const outcome = await attempt(retry);
    if (outcome.kind === 'result') return outcome.result;
    const { inputRequests, state } = outcome.input;
    checkInputRound(inputRequests, clientCapabilities, round);
    const entries = Object.entries(inputRequests);
    // The client answers the round's requests concurrently, as a modern client would.
    const answers = await Promise.all(entries.map(([, request]) => ask(request)));
    const inputResponses = Object.fromEntries(entries.map(([key], i) => [key, answers[i]]));
    retry = { inputResponses, state, asked: askedOf(inputRequests) };
  }
}
