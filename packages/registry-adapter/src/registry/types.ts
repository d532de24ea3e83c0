/**
 * The host side of the bridge: what a tool is to an application, and the registry that holds
 * them. Runtime-neutral; every export is experimental.
 */
import type { CallToolResult, InputRequest, ToolAnnotations } from '@twofold/protocol/experimental';

/**
 * A JSON Schema (2020-12) object, kept exactly as given.
 *
 * @experimental
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * Progress reported while a tool runs.
 *
 * @experimental
 */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A tool that needs input before it can finish (an MCP `input_required` round that nobody
 * answered). Resume it with `invoke(args, { resume: { inputResponses, state } })` on the same
 * tool, keyed like `inputRequests`; `state` is JSON and may be stored meanwhile.
 *
 * @experimental
 */
export interface InputRequiredOutcome {
  readonly resultType: 'input_required';
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** Opaque, JSON-serialisable; hand it back unchanged. */
  readonly state: unknown;
}

/**
 * What `invoke` settles with: a tool result (`isError` for a tool-level failure) or a request for
 * input. Protocol and transport failures reject instead.
 *
 * @experimental
 */
export type ToolOutcome = CallToolResult | InputRequiredOutcome;

/**
 * Answers a tool's input requests on the host's behalf (elicitation, sampling, roots). Given to
 * `invoke` or to a provider; without one, `invoke` settles with an `InputRequiredOutcome`.
 *
 * @experimental
 */
export interface InputResolver {
  /** Answers one request; the result is the `inputResponses` entry for its key. */
  resolve(request: InputRequest, context: { signal: AbortSignal; tool: string }): Promise<unknown>;
}

/**
 * What `invoke` gets besides the arguments.
 *
 * @experimental
 */
export interface InvokeContext {
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** Resuming an `InputRequiredOutcome`: its answers and its `state`. */
  resume?: { inputResponses: Record<string, unknown>; state: unknown };
  /** Answers input requests during this call (overrides the provider's resolver). */
  resolver?: InputResolver;
}

/**
 * A tool as a host application sees it.
 *
 * @experimental
 */
export interface HostTool {
  /** Unique within its registry. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** JSON Schema 2020-12 of the arguments (root `type: "object"`). */
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /** Where an imported tool came from; absent for the host's own tools. */
  readonly origin?: ToolOrigin;
  invoke(args: Record<string, unknown>, context: InvokeContext): Promise<ToolOutcome>;
}

/**
 * The MCP server and server-side tool name behind an imported tool.
 *
 * @experimental
 */
export interface ToolOrigin {
  /** The server's name in the provider or `mcp.json`. */
  readonly server: string;
  /** The tool's name on that server (the host name may be prefixed or shortened). */
  readonly tool: string;
}

/**
 * A registry change, as a registry reports it to its watchers.
 *
 * @experimental
 */
export type RegistryChange =
  | { type: 'registered'; name: string }
  | { type: 'unregistered'; name: string };

/**
 * A host's tool registry. Implement it over an agent framework's tool list, or use
 * `InMemoryToolRegistry`.
 *
 * @experimental
 */
export interface ToolRegistry {
  /** Adds a tool; throws when the name is taken. */
  register(tool: HostTool): void;
  /** Removes a tool; `false` when there was none by that name. */
  unregister(name: string): boolean;
  get(name: string): HostTool | undefined;
  /** Every tool, in a deterministic order (by name for the in-memory registry). */
  list(): HostTool[];
  /** Reports changes until the returned function is called. Optional for hosts. */
  watch?(listener: (change: RegistryChange) => void): () => void;
}
