/**
 * `@twofold/transports/http`: the HTTP client transports on fetch, for any runtime with one
 * (Node, Bun, Deno, Workers, browsers) — Streamable HTTP for the modern and the legacy era, and
 * the 2024-11-05 HTTP+SSE client. Every export here is experimental. (On Node,
 * `undiciFetch` from `./node` gives them a connection pool of their own.)
 *
 * @packageDocumentation
 */
export type { HttpAuthorizer, HttpAuthRequest, HttpAuthResponse } from './http-client/authorizer';
export type {
  HttpFetch,
  HttpFetchInit,
  HttpFetchResponse,
  HttpHeadersOption,
  ReconnectOptions,
  SseClientOptions,
  StreamableHttpClientOptions,
} from './http-client/options';
export { SseClientTransport } from './http-client/sse-client';
export { StreamableHttpClientTransport } from './http-client/streamable-http';
