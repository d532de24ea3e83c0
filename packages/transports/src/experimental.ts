/**
 * The experimental API of `@twofold/transports` that runs on any runtime: the in-memory pair,
 * newline-delimited JSON framing, the SSE parser and writer, and the Streamable HTTP server core
 * (web `Request`/`Response`). Node-only transports live on `@twofold/transports/node` and
 * `/http`; the contract suite on `/testing`. Every export may change in any minor release.
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
export * from './http-server/index';
export { createInMemoryPair } from './memory/in-memory-pair';
export {
  type SseEndState,
  type SseEvent,
  SseParser,
  type SseParserHandlers,
  type SseParserOptions,
} from './sse/parser';
export { encodeSseComment, encodeSseEvent, type SseEventInit } from './sse/writer';
