/**
 * `@twofold/transports/http` (Node only): the HTTP client transports on undici — Streamable
 * HTTP for the modern and the legacy era, and the 2024-11-05 HTTP+SSE client. Every export here
 * is experimental. (Their SSE parser is runtime-neutral and exported from `./experimental`.)
 *
 * @packageDocumentation
 */
export type { HttpAuthorizer, HttpAuthRequest, HttpAuthResponse } from './http-client/authorizer';
export type {
  HttpHeadersOption,
  ReconnectOptions,
  SseClientOptions,
  StreamableHttpClientOptions,
} from './http-client/options';
export { SseClientTransport } from './http-client/sse-client';
export { StreamableHttpClientTransport } from './http-client/streamable-http';
