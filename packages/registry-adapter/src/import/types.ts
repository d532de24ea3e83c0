/**
 * Contracts of the import side (MCP servers → a host registry): the provider's options, what
 * it attaches, and the events it reports. The naming contracts are in ../names/types.ts.
 */
import type { ConflictPolicy, NameRules, SkippedTool, ToolFilter } from '../names/types';
import type { InputResolver, ToolRegistry } from '../registry/types';

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
