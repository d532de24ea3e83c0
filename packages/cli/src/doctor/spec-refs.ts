/**
 * Spec references of the checks: a short path under `docs/specification/` of the spec
 * repository (`<revision>/<page>[#anchor]`), and the same page on modelcontextprotocol.io.
 */

/** A spec page, optionally with a section anchor. */
export type SpecRef = `${string}/${string}`;

const SITE = 'https://modelcontextprotocol.io/specification/';

/** The modelcontextprotocol.io URL of a spec reference. */
export function specUrl(ref: SpecRef): string {
  return SITE + ref;
}

/** The pages the checks cite, named by what they say. */
export const SPEC = {
  stdioBackwardCompatibility: '2026-07-28/basic/transports/stdio#backward-compatibility',
  httpBackwardCompatibility: '2026-07-28/basic/transports/streamable-http#backward-compatibility',
  versionNegotiation: '2026-07-28/basic/versioning#protocol-version-negotiation',
  discover: '2026-07-28/server/discover',
  resultType: '2026-07-28/basic/index#resulttype',
  caching: '2026-07-28/server/utilities/caching',
  toolsOrder: '2026-07-28/server/tools#capabilities',
  pagination: '2026-07-28/server/utilities/pagination',
  legacyPagination: '2025-11-25/server/utilities/pagination',
  toolNames: '2026-07-28/server/tools#tool-names',
  xMcpHeader: '2026-07-28/server/tools#x-mcp-header',
  serverValidation: '2026-07-28/basic/transports/streamable-http#server-validation',
  // The "Security & Endpoint" section; its anchor is not linked from the spec itself.
  originCheck: '2026-07-28/basic/transports/streamable-http',
  legacyOriginCheck: '2025-11-25/basic/transports',
  notifications: '2026-07-28/basic/index#notifications',
  legacyNotifications: '2025-11-25/basic/index#notifications',
  httpNotifications: '2026-07-28/basic/transports/streamable-http',
  modernOnlyInitialize:
    '2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions',
  legacyVersionNegotiation: '2025-11-25/basic/lifecycle#version-negotiation',
  // Extensions (skills, SEP-2640) have no spec page; this is where declaring one is defined.
  extensionNegotiation: '2026-07-28/basic/versioning#extension-negotiation',
} as const satisfies Record<string, SpecRef>;
