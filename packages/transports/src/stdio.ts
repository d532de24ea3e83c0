/**
 * `@twofold/transports/stdio` (Node only). Every export here is experimental.
 *
 * @packageDocumentation
 */
export {};
