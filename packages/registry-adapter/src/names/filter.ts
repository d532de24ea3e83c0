/**
 * Per-server allow and deny lists of tool names, with `*` globs.
 */
import type { ToolFilter } from './types';

/**
 * Whether `pattern` (an exact name, or a glob where `*` matches any run of characters,
 * including none) matches `name`.
 *
 * @experimental
 */
export function matchesGlob(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const parts = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`, 'u').test(name);
}

/**
 * Whether a tool named `tool` passes `filter`: not matched by `deny` (deny wins), and matched
 * by `allow` when an allow list is given (an empty allow list lets nothing through).
 *
 * @experimental
 */
export function matchesFilter(tool: string, filter: ToolFilter | undefined): boolean {
  return filterVerdict(tool, filter) === undefined;
}

/**
 * Why `filter` leaves `tool` out, or `undefined` when it lets the tool through.
 *
 * @experimental
 */
export function filterVerdict(tool: string, filter: ToolFilter | undefined): string | undefined {
  const denied = filter?.deny?.find((pattern) => matchesGlob(pattern, tool));
  if (denied !== undefined) return `denied by ${JSON.stringify(denied)}`;
  const allow = filter?.allow;
  if (allow !== undefined && !allow.some((pattern) => matchesGlob(pattern, tool))) {
    return 'not in the allow list';
  }
  return undefined;
}
