/**
 * The HTTP target on fetch, for any runtime: Streamable HTTP in either era, and the 2024-11-05
 * HTTP+SSE fallback.
 */
import {
  type HttpAuthorizer,
  type HttpFetch,
  type HttpHeadersOption,
  type ReconnectOptions,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@twofold/transports/http';
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
  /**
   * The fetch every request goes through (a proxy, a recorder, a platform binding). Default:
   * the runtime's global `fetch`, looked up at each request.
   */
  fetch?: HttpFetch;
}

/** What one transport fetches with, and what it releases when it closes. */
export interface TargetFetch {
  fetch?: HttpFetch;
  closeFetch?: () => Promise<void>;
}

/**
 * A server reached over HTTP with the runtime's `fetch`: Node 20+, Bun, Deno, Cloudflare
 * Workers and browsers. The client starts with a modern POST and falls back to legacy
 * Streamable HTTP, then to HTTP+SSE, as the server's answers require. Messages name it by its
 * origin and path. (On Node, `httpServer` from `@twofold/client/node` adds a connection pool
 * per connection and undici dispatchers.)
 *
 * @example
 * ```ts
 * const target = httpServer({ url: 'https://mcp.example.com/mcp' });
 * const client = await McpClient.connect(target, { clientInfo: { name: 'my-app', version: '1.0.0' } });
 * const { tools } = await client.listTools();
 * await client.close();
 * ```
 * @experimental
 */
export function httpServer(options: HttpServerOptions): ServerTarget {
  return httpTarget(options, () => (options.fetch === undefined ? {} : { fetch: options.fetch }));
}

/** An HTTP target whose transports each get the fetch `fetchFor` makes. */
export function httpTarget(options: HttpServerOptions, fetchFor: () => TargetFetch): ServerTarget {
  const url = new URL(options.url);
  return {
    kind: 'http',
    key: `http:${url.origin}${url.pathname}${url.search}`,
    // No userinfo or query: either may hold a credential.
    name: `${url.origin}${url.pathname}`,
    open: (request) => openTransport(options, fetchFor(), request),
  };
}

function openTransport(
  options: HttpServerOptions,
  fetching: TargetFetch,
  request: HttpTransportRequest,
) {
  const shared = {
    ...fetching,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.requestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.requestTimeoutMs }),
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
