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
  /** Host names of the tools being called right now (legacy requests are attributed by it). */
  readonly inFlight: Map<string, number>;
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
    inFlight: new Map(),
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
  const calls = [...link.inFlight.keys()];
  return calls.length === 1 ? (calls[0] as string) : '';
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
    invoke: (args, context) => invokeAdapted(name, tool.name, link, args, context),
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
  link.inFlight.set(hostName, (link.inFlight.get(hostName) ?? 0) + 1);
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
    const left = (link.inFlight.get(hostName) ?? 1) - 1;
    if (left > 0) link.inFlight.set(hostName, left);
    else link.inFlight.delete(hostName);
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
