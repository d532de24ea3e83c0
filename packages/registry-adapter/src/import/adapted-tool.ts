/**
 * One MCP tool of a connected server as a `HostTool`: schemas exactly as the server sent them,
 * calls through `McpClient.callTool`, and `input_required` rounds answered by a resolver or
 * handed to the host as an `InputRequiredOutcome` it can resume later.
 */
import type { InputHandlers, McpClient } from '@twofold/client/experimental';
import type {
  CallToolResult,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  InputRequiredResult,
  ListRootsResult,
  Tool,
  ToolAnnotations,
} from '@twofold/protocol/experimental';
import type {
  HostTool,
  InputResolver,
  InvokeContext,
  JsonSchema,
  ToolOrigin,
  ToolOutcome,
} from '../registry/types';
import { InputRoundsExceededError, ToolUnavailableError } from './errors';

/**
 * Rounds of `input_required` a resolver answers in one `invoke` before it fails with
 * `InputRoundsExceededError`.
 *
 * @experimental
 */
export const MAX_INPUT_ROUNDS = 8;

/**
 * A provider's handle on one attached server, shared by all its adapted tools.
 *
 * @experimental
 */
export interface ServerLink {
  readonly server: string;
  /** The live client, or `undefined` once the server is detached. */
  client(): McpClient | undefined;
  /** Why the server is unavailable, once it is (for `ToolUnavailableError`). */
  readonly detachedReason?: string;
  /** The provider's resolver, when it has one. */
  resolver(): InputResolver | undefined;
  /** The calls running right now (legacy requests for input are attributed by them). */
  readonly inFlight: Set<ActiveCall>;
}

/**
 * One call of an adapted tool in flight.
 *
 * @experimental
 */
export interface ActiveCall {
  /** The tool's host name. */
  readonly tool: string;
  /** The resolver answering its input: the call's own, else the provider's. */
  readonly resolver: InputResolver | undefined;
  /** Legacy requests for input answered for it so far (bounded like modern rounds). */
  answered: number;
}

/**
 * A `ServerLink` a provider holds: bound to its client once connected, marked when detached.
 *
 * @experimental
 */
export interface OwnedServerLink extends ServerLink {
  detachedReason?: string;
  bind(client: McpClient): void;
}

/**
 * Creates the link of server `server`, whose tools use `resolver` unless a call brings one.
 *
 * @experimental
 */
export function createServerLink(
  server: string,
  resolver: InputResolver | undefined,
): OwnedServerLink {
  let bound: McpClient | undefined;
  const link: OwnedServerLink = {
    server,
    client: () => (link.detachedReason === undefined ? bound : undefined),
    resolver: () => resolver,
    inFlight: new Set(),
    bind: (client) => {
      bound = client;
    },
  };
  return link;
}

/**
 * The host name of the one tool being called on a server, or `''` unless exactly one is (so a
 * legacy server's request for input can be attributed to it).
 *
 * @experimental
 */
export function soleCall(link: ServerLink): string {
  const tools = new Set([...link.inFlight].map((call) => call.tool));
  return tools.size === 1 ? ([...tools][0] as string) : '';
}

/**
 * The resolver for a legacy server's request for input: the one every call in flight uses
 * (so a resolver given to `invoke` is honoured), else the provider's.
 *
 * @experimental
 */
export function callResolver(link: ServerLink): InputResolver {
  const calls = [...link.inFlight];
  const resolvers = new Set(calls.map((call) => call.resolver));
  const [only] = resolvers;
  const chosen = (resolvers.size === 1 ? only : undefined) ?? link.resolver();
  // Without a resolver the request is declined (the client turns a throw into a decline).
  if (chosen === undefined) throw new Error('no input resolver for this request');
  const [sole] = calls;
  if (calls.length === 1 && sole !== undefined && ++sole.answered > MAX_INPUT_ROUNDS) {
    throw new InputRoundsExceededError(sole.tool, MAX_INPUT_ROUNDS);
  }
  return chosen;
}

/** Why a host tool may no longer be called although its server is up (a re-list dropped it). */
const retired = new WeakMap<HostTool, string>();

/**
 * Marks an adapted tool as no longer registered: calls through a stale reference then reject
 * with `ToolUnavailableError` instead of reaching the server.
 *
 * @experimental
 */
export function retireTool(tool: HostTool, reason: string): void {
  retired.set(tool, reason);
}

/**
 * The `state` of an `InputRequiredOutcome` from an adapted tool.
 *
 * @experimental
 */
export interface AdaptedInputState {
  /** The server's `requestState`, echoed byte-exact on resume. */
  requestState?: string;
}

/**
 * Builds the `HostTool` named `name` for `tool` of `link`'s server. `inputSchema`,
 * `outputSchema` and `annotations` are the very objects the server listed.
 *
 * @experimental
 */
export function adaptTool(name: string, tool: Tool, link: ServerLink): HostTool {
  const origin: ToolOrigin = Object.freeze({ server: link.server, tool: tool.name });
  const adapted: HostTool = {
    name,
    inputSchema: tool.inputSchema as JsonSchema,
    origin,
    invoke: (args, context) => {
      const reason = retired.get(adapted);
      if (reason !== undefined) {
        return Promise.reject(new ToolUnavailableError(name, link.server, reason));
      }
      return invokeAdapted(name, tool.name, link, args, context);
    },
  };
  const extra: {
    title?: string;
    description?: string;
    outputSchema?: JsonSchema;
    annotations?: ToolAnnotations;
  } = {};
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) extra.title = title;
  if (tool.description !== undefined) extra.description = tool.description;
  if (tool.outputSchema !== undefined) extra.outputSchema = tool.outputSchema as JsonSchema;
  if (tool.annotations !== undefined) extra.annotations = tool.annotations;
  return Object.freeze(Object.assign(adapted, extra));
}

async function invokeAdapted(
  hostName: string,
  toolName: string,
  link: ServerLink,
  args: Record<string, unknown>,
  context: InvokeContext,
): Promise<ToolOutcome> {
  const client = link.client();
  if (client === undefined || client.closed) {
    throw new ToolUnavailableError(hostName, link.server, link.detachedReason ?? 'is disconnected');
  }
  const { signal } = context;
  const resolver = context.resolver ?? link.resolver();
  const call = (inputResponses?: Record<string, unknown>, requestState?: string) =>
    client.callTool(toolName, args, {
      signal,
      inputMode: 'manual',
      ...(context.onProgress ? { onProgress: context.onProgress } : {}),
      ...(inputResponses ? { inputResponses } : {}),
      ...(requestState === undefined ? {} : { requestState }),
    });
  const active: ActiveCall = { tool: hostName, resolver, answered: 0 };
  link.inFlight.add(active);
  try {
    const resume = context.resume;
    let result = resume
      ? await call(resume.inputResponses, requestStateOf(resume.state))
      : await call();
    if (resolver === undefined) return outcome(result);
    for (let round = 0; isInputRequired(result); round++) {
      if (round === MAX_INPUT_ROUNDS) throw new InputRoundsExceededError(hostName, round);
      const requests = Object.entries(result.inputRequests ?? {});
      const answers = await Promise.all(
        requests.map(async ([key, request]) => {
          signal.throwIfAborted();
          return [key, await resolver.resolve(request, { signal, tool: hostName })] as const;
        }),
      );
      result = await call(Object.fromEntries(answers), result.requestState);
    }
    return result;
  } finally {
    link.inFlight.delete(active);
  }
}

function isInputRequired(
  result: CallToolResult | InputRequiredResult,
): result is InputRequiredResult {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

function outcome(result: CallToolResult | InputRequiredResult): ToolOutcome {
  if (!isInputRequired(result)) return result;
  const state: AdaptedInputState =
    result.requestState === undefined ? {} : { requestState: result.requestState };
  return { resultType: 'input_required', inputRequests: result.inputRequests ?? {}, state };
}

function requestStateOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const requestState = (state as AdaptedInputState).requestState;
  return typeof requestState === 'string' ? requestState : undefined;
}

/**
 * Client `InputHandlers` that pass every server request for input (legacy server-to-client
 * requests; modern rounds in `auto` mode) to `resolver` as an `InputRequest`. `tool` names the
 * tool in the resolver's context when the caller knows it (`''` otherwise).
 *
 * @experimental
 */
export function handlersFromResolver(
  resolver: InputResolver,
  tool: () => string = () => '',
): InputHandlers {
  const ask = (request: InputRequest, signal: AbortSignal) =>
    resolver.resolve(request, { signal, tool: tool() });
  return {
    elicitation: async (params, { signal }) =>
      (await ask({ method: 'elicitation/create', params: { ...params } }, signal)) as ElicitResult,
    sampling: async (params, { signal }) =>
      (await ask(
        { method: 'sampling/createMessage', params: { ...params } },
        signal,
      )) as CreateMessageResult,
    roots: async ({ signal }) =>
      (await ask({ method: 'roots/list', params: {} }, signal)) as ListRootsResult,
  };
}
