/**
 * `@twofold/server/stdio` (Node only): serve an `McpServer` on process streams. Every export
 * here is experimental.
 *
 * @packageDocumentation
 */
export {};
