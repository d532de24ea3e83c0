/**
 * What the dispatchers need from a server object. `McpServer` satisfies it; the dispatchers
 * depend on this narrow shape only, so they can be tested (and reused) without the registry.
 */
import type {
  Implementation,
  LegacyVersion,
  McpHeaderParam,
  ModernVersion,
} from '@twofold/protocol/experimental';
import type { CachePolicy } from '../api';
import type { Operations } from '../operations/types';
import type { ExtensionMethod } from './extension-methods';
import type { McpServerOptions } from './options';

/**
 * The parts of `McpServer` that serving it on a transport or over HTTP uses.
 *
 * @experimental
 */
export interface ServedServer {
  readonly options: McpServerOptions;
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** Versions offered, newest first, per era. */
  readonly offeredVersions: {
    readonly modern: readonly ModernVersion[];
    readonly legacy: readonly LegacyVersion[];
  };
  readonly operations: Operations;
  /** The `x-mcp-header` parameters of a tool (HTTP header validation of `tools/call`). */
  headerParams(toolName: string): readonly McpHeaderParam[] | undefined;
  /** The handler of a method an extension adds; without it, only core methods are served. */
  extensionMethod?(method: string): ExtensionMethod | undefined;
}

/** The server-wide cache hints when the options set none: never reused, never shared. */
const DEFAULT_CACHE: CachePolicy = { ttlMs: 0, cacheScope: 'private' };

/** The server-wide cache hints (for `server/discover`). */
export function serverCachePolicy(server: ServedServer): CachePolicy {
  return server.options.cache ?? DEFAULT_CACHE;
}

/** Every version the server offers, modern first, each era newest first. */
export function offeredVersionList(server: ServedServer): string[] {
  return [...server.offeredVersions.modern, ...server.offeredVersions.legacy];
}
