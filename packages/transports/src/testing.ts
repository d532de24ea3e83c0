/**
 * `@twofold/transports/testing` (Node only). Every export here is experimental.
 *
 * @packageDocumentation
 */
export {};
