/** `server/discover`: versions, capabilities, instructions and identity, with cache hints. */
import type { ServerCapabilities } from '@twofold/protocol/experimental';
import { offeredVersionList, type ServedServer, serverCachePolicy } from '../core/served-server';
import { completeModernResult } from './results';

/**
 * The `DiscoverResult`. `supportedVersions` lists every offered version, modern first: the
 * spec's own examples list legacy versions beside modern ones, and a dual-era client learns
 * from it that `initialize` works too.
 */
export function discoverResult(
  server: ServedServer,
  capabilities: ServerCapabilities,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    supportedVersions: offeredVersionList(server),
    capabilities,
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return completeModernResult(server, result, serverCachePolicy(server));
}
