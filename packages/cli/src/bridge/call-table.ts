/**
 * The bridged calls in flight, oldest first, and the attribution of upstream messages that do
 * not say which call they belong to.
 *
 * A legacy server's own requests (elicitation, sampling) and its log messages carry no
 * reference to the client request they serve: on stdio there is no such field, and the client
 * does not surface which HTTP stream a message came on. The bridge therefore attributes:
 * - an input request to the oldest call in flight whose downstream client declared the
 *   capability it needs, preferring calls not already waiting for an answer (a server waiting
 *   on one call's question is more likely asking for another call than asking twice): exact
 *   whenever one call is in flight, a best guess with several; with none, the upstream is
 *   told no (an elicitation is declined, anything else fails);
 * - a log message to the only call in flight; with several, it goes to `onLog` alone, since
 *   showing one downstream client another's log would be worse than not showing it.
 */
import {
  type ClientCapabilities,
  ErrorCode,
  type InputRequest,
  ProtocolError,
} from '@twofold/protocol/experimental';
import type { RequestContext } from '@twofold/server/experimental';
import { BridgedCall, type UpstreamStart } from './bridged-call';

/** The calls in flight through one bridge. */
export class CallTable {
  // A Map iterates in insertion order: oldest call first.
  private readonly calls = new Map<string, BridgedCall>();

  constructor(private readonly parkMs: number) {}

  /** Starts a call upstream on behalf of the downstream request `first`. */
  start(first: RequestContext, start: UpstreamStart): BridgedCall {
    const call = new BridgedCall(first, this.parkMs, (ended) => this.calls.delete(ended.id));
    this.calls.set(call.id, call);
    call.begin(start);
    return call;
  }

  /** A call still pending, by the id its `InputRequired` state carries. */
  find(id: string): BridgedCall | undefined {
    return this.calls.get(id);
  }

  /** An upstream input request: answered by the downstream client of the call it is for. */
  async ask(request: InputRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const able = [...this.calls.values()].filter((call) => declares(call.capabilities, request));
    const call = able.find((candidate) => !candidate.awaitingInput) ?? able[0];
    if (call !== undefined) return call.offer(request, signal);
    throw new ProtocolError(
      ErrorCode.MethodNotFound,
      `No downstream client can answer ${request.method} now (none in flight declared it)`,
    );
  }

  /** An upstream log message: forwarded when exactly one call is in flight. */
  log(params: Record<string, unknown>): void {
    if (this.calls.size !== 1) return;
    for (const call of this.calls.values()) call.log(params);
  }

  /** Cancels every call upstream (the bridge is closing). */
  cancelAll(reason: string): void {
    for (const call of [...this.calls.values()]) call.cancel(reason);
  }
}

/** Whether a client with `capabilities` may be asked `request` (the spec's capability rules). */
function declares(capabilities: ClientCapabilities, request: InputRequest): boolean {
  const params = request.params ?? {};
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
      // An empty `elicitation` object means form mode only.
      return elicitation !== undefined && (params.mode !== 'url' || elicitation.url !== undefined);
    }
    case 'sampling/createMessage': {
      const sampling = capabilities.sampling as Record<string, unknown> | undefined;
      return sampling !== undefined && (params.tools === undefined || sampling.tools !== undefined);
    }
    case 'roots/list':
      return capabilities.roots !== undefined;
  }
}
