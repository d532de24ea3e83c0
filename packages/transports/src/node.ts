/**
 * `@twofold/transports/node` (Node only). Every export here is experimental.
 *
 * @packageDocumentation
 */
export {};
