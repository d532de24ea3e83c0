/**
 * Not a public entry (no `exports` path leads here): the core modules that `./experimental` and
 * `./http` both use without `./experimental` exporting all their names. As a hub of its own they
 * exist once: in ESM this file replaces an anonymous chunk, and in CommonJS, which has no
 * chunks, each entry would otherwise carry its own copy, with its own per-server listen hubs.
 */
export * from './auth/types';
export * from './core/request-headers';
export * from './listen/change-bus';
export * from './listen/hub';
export * from './listen/open-listens';
export * from './registry/checks';
