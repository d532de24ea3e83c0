/**
 * The stable root entry of `@twofold/cli`. It exports only what is stable; the package's API is
 * experimental and lives under `@twofold/cli/experimental` (see docs/stability.md).
 *
 * @packageDocumentation
 */

/** The version of `@twofold/cli` in use, as published in its package.json. */
export const version: string = __TWOFOLD_VERSION__;

/**
 * The import path of this package's experimental API. Importing from it is the opt-in to APIs
 * that may change in any minor release.
 */
export const experimentalEntry = '@twofold/cli/experimental';
