/**
 * Contracts of naming imported tools: the names a host accepts, conflict policies, per-server
 * filters, and where each tool ended up (or why it was left out).
 */

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
