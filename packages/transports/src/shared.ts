/**
 * Not a public entry (no `exports` path leads here): the modules that `./http-server` and
 * `./node` both use without `./http-server` exporting all their names. As a hub of its own they
 * exist once: in ESM this file replaces anonymous chunks, and in CommonJS, which has no chunks,
 * each entry would otherwise carry its own copy (its own `Reply` class, which the other entry's
 * `instanceof` would not recognize).
 */
export * from './http-server/body';
export * from './http-server/guards';
export * from './http-server/responses';
export * from './http-server/sse-stream';
