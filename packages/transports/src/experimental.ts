/**
 * The experimental API of `@twofold/transports`. Every export here carries an `@experimental` TSDoc tag and
 * may change in any minor release.
 *
 * The package is scaffolded: its API arrives with its issue.
 *
 * @packageDocumentation
 */
export {};
