/**
 * Contracts of the import side (MCP servers → a host registry): naming rules, conflict
 * policies, per-server filters and the events a provider reports.
 */
import type { InputResolver, ToolRegistry } from '../registry/types';

/**
 * Chooses a host name for a tool whose bare name clashes with another server's tool. Called for
 * every claimant of the clashing name; return the name to use, or `undefined` to leave the tool
 * out. The returned name is still made valid and must not clash itself.
 *
 * @experimental
 */
export type ConflictResolver = (clash: {
  server: string;
  tool: string;
  /** The other claimants of the same bare name, in server order. */
  clashesWith: readonly { server: string; tool: string }[];
}) => string | undefined;

/**
 * What happens when two servers offer the same tool name:
 * - `error`: the later server's clashing tool is refused (`ToolNameConflictError` when adding,
 *   a `tool-skipped` and a `warning` event on re-list);
 * - `first-wins`: the earlier server keeps the name; the later tool is left out with a warning
 *   naming both servers;
 * - `prefix-on-collision`: every claimant of a clashing name becomes `{server}__{tool}`; names
 *   without a clash stay bare (names depend only on the current tools, not on connect order);
 * - `always-prefix`: every tool becomes `{server}__{tool}`;
 * - a `ConflictResolver`.
 * "Earlier" is the order servers were added to the provider, not the order they connected.
 *
 * @experimental
 */
export type ConflictPolicy =
  | 'error'
  | 'first-wins'
  | 'prefix-on-collision'
  | 'always-prefix'
  | ConflictResolver;

/**
 * What a host accepts as a tool name.
 *
 * @experimental
 */
export interface NameRules {
  /** Default `/^[A-Za-z0-9_-]{1,N}$/`, N being `maxLength`. */
  pattern: RegExp;
  /** Longer names are shortened with a short stable hash. Default 64. */
  maxLength: number;
}

/**
 * Which of a server's tools to import. Entries are exact names or `*` globs. Deny wins.
 *
 * @experimental
 */
export interface ToolFilter {
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * One tool's place in the host registry.
 *
 * @experimental
 */
export interface NameAssignment {
  server: string;
  tool: string;
  name: string;
}

/**
 * Why a tool was not imported.
 *
 * @experimental
 */
export interface SkippedTool {
  server: string;
  tool: string;
  reason: 'filtered' | 'conflict' | 'invalid-name' | 'resolver-declined';
  message: string;
}

/**
 * Everything a provider decides, as events; nothing is decided silently.
 *
 * @experimental
 */
export type ProviderEvent =
  | { type: 'tool-registered'; server: string; tool: string; name: string }
  | { type: 'tool-unregistered'; server: string; tool: string; name: string; reason: string }
  | { type: 'tool-skipped'; skipped: SkippedTool }
  | { type: 'tool-renamed'; server: string; tool: string; from: string; to: string }
  | { type: 'server-attached'; server: string; tools: number }
  | { type: 'server-detached'; server: string; reason: string }
  | { type: 'relist-failed'; server: string; error: Error }
  | { type: 'warning'; server?: string; message: string };

/**
 * Options of `McpToolProvider`.
 *
 * @experimental
 */
export interface ToolProviderOptions {
  registry: ToolRegistry;
  /** Default `prefix-on-collision`. */
  conflictPolicy?: ConflictPolicy;
  nameRules?: Partial<NameRules>;
  /** Answers input-required rounds of every imported tool unless a call brings its own. */
  resolver?: InputResolver;
  onEvent?: (event: ProviderEvent) => void;
}

/**
 * A server attached to a provider.
 *
 * @experimental
 */
export interface AttachOptions {
  filter?: ToolFilter;
  /** Default true: re-list on `tools/list_changed` (modern `subscriptions/listen`, legacy notifications). */
  followChanges?: boolean;
}
