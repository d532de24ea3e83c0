/**
 * Not a public entry (no `exports` path leads here): classes that several entries need and that
 * reach them through modules `./experimental` does not export whole (the framework entries'
 * error; `McpConfigError`, which `./node` meets through the JSON text reader). As a hub of its
 * own each exists once: CommonJS has no chunks, so each entry would otherwise carry its own copy,
 * and `instanceof` against one entry's class would fail for errors another entry threw.
 */
export * from './adapters/shared/errors';
export * from './config/errors';
