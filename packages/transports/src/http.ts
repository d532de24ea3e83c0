/**
 * `@twofold/transports/http` (Node only). Every export here is experimental.
 *
 * @packageDocumentation
 */
export {};
