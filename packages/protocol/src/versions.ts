/**
 * Protocol versions and the era each belongs to. Pure data and functions.
 *
 * 2025-03-26 is deliberately not offered: it is the only revision that makes JSON-RPC batching
 * mandatory, and twofold does not batch. A peer asking for it in `initialize` is answered with
 * the newest legacy revision, as legacy negotiation allows.
 */

/**
 * Modern (stateless, per-request `_meta`) versions, newest first.
 *
 * @experimental
 */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
/**
 * Legacy (`initialize` handshake) versions, newest first.
 *
 * @experimental
 */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2024-11-05'] as const;
/**
 * Every version twofold speaks, newest first.
 *
 * @experimental
 */
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, ...LEGACY_VERSIONS] as const;

/**
 * A modern protocol version twofold speaks.
 *
 * @experimental
 */
export type ModernVersion = (typeof MODERN_VERSIONS)[number];
/**
 * A legacy protocol version twofold speaks.
 *
 * @experimental
 */
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
/**
 * Any protocol version twofold speaks.
 *
 * @experimental
 */
export type ProtocolVersion = ModernVersion | LegacyVersion;
/**
 * The two eras: stateless per-request `_meta` (modern) or `initialize` sessions (legacy).
 *
 * @experimental
 */
export type Era = 'modern' | 'legacy';

/**
 * The newest version; what a client asks for first.
 *
 * @experimental
 */
export const LATEST_VERSION: ModernVersion = MODERN_VERSIONS[0];
/**
 * The newest legacy version; what a legacy handshake asks for first.
 *
 * @experimental
 */
export const LATEST_LEGACY_VERSION: LegacyVersion = LEGACY_VERSIONS[0];

/**
 * Whether twofold speaks `version`.
 *
 * @experimental
 */
export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_VERSIONS as readonly unknown[]).includes(version);
}
/**
 * Whether `version` is a modern version twofold speaks.
 *
 * @experimental
 */
export function isModernVersion(version: unknown): version is ModernVersion {
  return (MODERN_VERSIONS as readonly unknown[]).includes(version);
}
/**
 * Whether `version` is a legacy version twofold speaks.
 *
 * @experimental
 */
export function isLegacyVersion(version: unknown): version is LegacyVersion {
  return (LEGACY_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * The era of a supported version, or `undefined` for a version twofold does not speak.
 *
 * @experimental
 */
export function eraOf(version: string): Era | undefined {
  if (isModernVersion(version)) return 'modern';
  if (isLegacyVersion(version)) return 'legacy';
  return undefined;
}

/**
 * Legacy `initialize` negotiation (server side): the requested version when the server offers
 * it, otherwise the newest version it offers.
 *
 * @experimental
 */
export function selectLegacyVersion(
  requested: unknown,
  offered: readonly LegacyVersion[] = LEGACY_VERSIONS,
): LegacyVersion {
  const match = offered.find((v) => v === requested);
  const newest = offered[0];
  if (newest === undefined) throw new RangeError('selectLegacyVersion: no legacy version offered');
  return match ?? newest;
}

/**
 * The newest version both sides support, or `undefined` when they share none. Order of
 * `ours` decides preference (newest first).
 *
 * @experimental
 */
export function selectMutualVersion<V extends string>(
  theirs: readonly string[],
  ours: readonly V[],
): V | undefined {
  return ours.find((v) => theirs.includes(v));
}
