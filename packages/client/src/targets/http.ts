/** The HTTP target: Streamable HTTP in either era, and the 2024-11-05 HTTP+SSE fallback. */
import {
  type HttpAuthorizer,
  type HttpHeadersOption,
  type ReconnectOptions,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@twofold/transports/http';
import type { Dispatcher } from 'undici';
import type { HttpTransportRequest, ServerTarget } from '../types';

/**
 * How to reach an HTTP server.
 *
 * @experimental
 */
export interface HttpServerOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /**
   * Where a 2024-11-05 HTTP+SSE server's event stream lives when it is not `url` (often a
   * `/sse` path). Default: `url`, as the spec's fallback prescribes.
   */
  sseUrl?: string | URL;
  /** Extra headers, fixed or computed before each request. */
  headers?: HttpHeadersOption;
  /**
   * Authorization of every request, answering 401/403 challenges: an `OAuthProvider` (from
   * `@twofold/client/experimental`) runs MCP's OAuth flows.
   */
  auth?: HttpAuthorizer;
  /** Response start and stream inactivity limit, in milliseconds. Default 60000. */
  requestTimeoutMs?: number;
  /** Largest response body or SSE event, in bytes. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Reconnection of legacy SSE streams. */
  reconnect?: ReconnectOptions;
  /** The undici dispatcher (e.g. a proxy agent). Default: one keep-alive agent per transport. */
  dispatcher?: Dispatcher;
}

/**
 * A server reached over HTTP. The client starts with a modern POST and falls back to legacy
 * Streamable HTTP, then to HTTP+SSE, as the server's answers require. Messages name it by its
 * origin and path.
 *
 * @example
 * ```ts
 * const target = httpServer({
 *   url: 'https://mcp.example.com/mcp',
 *   headers: { 'X-Api-Key': process.env.API_KEY ?? '' },
 * });
 * const client = await McpClient.connect(target, { clientInfo: { name: 'my-app', version: '1.0.0' } });
 * ```
 * @experimental
 */
export function httpServer(options: HttpServerOptions): ServerTarget {
  const url = new URL(options.url);
  return {
    kind: 'http',
    key: `http:${url.origin}${url.pathname}${url.search}`,
    // No userinfo or query: either may hold a credential.
    name: `${url.origin}${url.pathname}`,
    open: (request) => openTransport(options, request),
  };
}

function openTransport(options: HttpServerOptions, request: HttpTransportRequest) {
  const shared = {
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.requestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  };
  if (request.kind === 'http+sse') {
    return new SseClientTransport({
      url: options.sseUrl ?? options.url,
      ...shared,
      ...(options.maxResponseBytes === undefined
        ? {}
        : { maxEventBytes: options.maxResponseBytes }),
    });
  }
  return new StreamableHttpClientTransport({
    url: options.url,
    era: request.kind,
    headerParams: request.headerParams,
    ...shared,
    ...(request.protocolVersion === undefined ? {} : { protocolVersion: request.protocolVersion }),
    ...(options.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.maxResponseBytes }),
    ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
  });
}
