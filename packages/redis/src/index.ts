/**
 * The stable root entry of `@twofold/redis`. It exports only what is stable; the package's API is
 * experimental and lives under `@twofold/redis/experimental` (see docs/stability.md).
 *
 * @packageDocumentation
 */

/** The version of `@twofold/redis` in use, as published in its package.json. */
export const version: string = __TWOFOLD_VERSION__;

/**
 * The import path of this package's experimental API. Importing from it is the opt-in to APIs
 * that may change in any minor release.
 */
export const experimentalEntry = '@twofold/redis/experimental';
