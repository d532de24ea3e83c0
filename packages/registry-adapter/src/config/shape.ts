/**
 * The shapes an `mcp.json` comes in. Claude Desktop, Cursor, Claude Code and twofold keep servers
 * under `mcpServers`; VS Code keeps them under `servers`, beside an `inputs` array. Claude
 * Desktop's file also holds the app's own settings at the top level. A document is read and
 * edited in its own shape, so a VS Code file stays a VS Code file.
 */
import { isRecord } from '@twofold/protocol/experimental';
import { fieldHint } from './suggest';

/**
 * Where a document keeps its servers: `mcpServers`, or VS Code's `servers`.
 *
 * @experimental
 */
export type ServersKey = 'mcpServers' | 'servers';

/**
 * `servers` for a VS Code document (it has `servers` and no `mcpServers`), else `mcpServers`.
 *
 * @experimental
 */
export function serversKeyOf(raw: Record<string, unknown>): ServersKey {
  return 'servers' in raw && !('mcpServers' in raw) ? 'servers' : 'mcpServers';
}

/**
 * The raw server entries of a document, whichever its shape (`{}` when there are none).
 *
 * @experimental
 */
export function configServers(raw: Record<string, unknown>): Record<string, unknown> {
  const servers = raw[serversKeyOf(raw)];
  return isRecord(servers) ? servers : {};
}

/**
 * A copy of a document with its server entries replaced, under the key it already uses.
 *
 * @experimental
 */
export function withConfigServers(
  raw: Record<string, unknown>,
  servers: Record<string, unknown>,
): Record<string, unknown> {
  return { ...raw, [serversKeyOf(raw)]: servers };
}

/**
 * A raw document in the schema's terms: servers under `mcpServers`, and top-level keys that are
 * another application's settings (Claude Desktop's `globalShortcut`, …) left out. A key close to
 * one of twofold's (`conflictPolicyy`) is kept, so it is reported with a "did you mean".
 */
export function schemaView(
  raw: Record<string, unknown>,
  topLevelKeys: readonly string[],
): Record<string, unknown> {
  const key = serversKeyOf(raw);
  const view: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const own = name === key || topLevelKeys.includes(name);
    if (own || fieldHint(name, topLevelKeys) !== '') {
      Object.defineProperty(view, name === key ? 'mcpServers' : name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return view;
}
