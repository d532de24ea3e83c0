/**
 * The experimental API of `@twofold/transports` that runs on any runtime: the in-memory pair,
 * newline-delimited JSON framing, and the SSE parser and writer. The Streamable HTTP server
 * core (web `Request`/`Response`) is on `@twofold/transports/http-server`, the HTTP client
 * transports on `/http`, the Node-only transports on `/node` (the stdio ones alone on
 * `/stdio`), the contract suite on `/testing`. Every export may change in any minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export * from './framing/index';
export {
  type HttpAuthorizer,
  type HttpAuthRequest,
  type HttpAuthResponse,
  MAX_AUTHORIZATION_RETRIES,
} from './http-client/authorizer';
export { createInMemoryPair } from './memory/in-memory-pair';
export {
  type SseEndState,
  type SseEvent,
  SseParser,
  type SseParserHandlers,
  type SseParserOptions,
} from './sse/parser';
export { encodeSseComment, encodeSseEvent, type SseEventInit } from './sse/writer';
