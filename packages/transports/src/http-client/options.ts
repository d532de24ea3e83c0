/** Options of the HTTP client transports, with their documented defaults in one place. */
import type { McpHeaderParam } from '@twofold/protocol/experimental';
import type { HttpAuthorizer } from './authorizer';

/**
 * Extra request headers (e.g. `Authorization`): fixed, or computed before every request so a
 * token can be refreshed. They cannot replace the headers the transport sets itself.
 *
 * @experimental
 */
export type HttpHeadersOption =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * The request a transport hands to its fetch: always a string body (or none), plain headers
 * (already merged case-insensitively) and a signal.
 *
 * @experimental
 */
export interface HttpFetchInit {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/**
 * The parts of a fetch `Response` the transports read; every runtime's `Response` has them.
 *
 * @experimental
 */
export interface HttpFetchResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * The fetch an HTTP client transport sends with. The runtime's own `fetch` fits, and so does
 * any wrapper of it (a proxy, a test recorder, undici with a tuned dispatcher).
 *
 * @experimental
 */
export type HttpFetch = (url: URL, init: HttpFetchInit) => Promise<HttpFetchResponse>;

/**
 * Reconnection of legacy SSE streams (the GET stream, and a POST stream resumed through GET).
 * The wait before a reconnection is the server's last `retry:` value when it sent one, else
 * `initialDelayMs` doubled per consecutive failed attempt, capped at `maxDelayMs`.
 *
 * @experimental
 */
export interface ReconnectOptions {
  /** First wait, in milliseconds. Default 1000. */
  initialDelayMs?: number;
  /** Longest wait, in milliseconds. Default 30000. */
  maxDelayMs?: number;
  /** Consecutive failed attempts before giving up (reported on `onerror`). Default 5. */
  maxRetries?: number;
}

/**
 * Options of `StreamableHttpClientTransport`.
 *
 * @experimental
 */
export interface StreamableHttpClientOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /**
   * `modern`: 2026-07-28, stateless, one POST per message. `legacy`: the Streamable HTTP of
   * 2025-11-25 / 2025-06-18 (also used for a negotiated 2024-11-05), with sessions.
   */
  era: 'modern' | 'legacy';
  /**
   * Modern: the `MCP-Protocol-Version` sent for a message whose `_meta` names none (default
   * the latest modern version). Legacy: the negotiated version, when known up front (usually it
   * is set after `initialize` with `setProtocolVersion`).
   */
  protocolVersion?: string;
  /** Extra headers for every request. */
  headers?: HttpHeadersOption;
  /** Authorizes every request and answers 401/403 challenges (e.g. `OAuthProvider`). */
  auth?: HttpAuthorizer;
  /**
   * How long a request may wait for its response to start, and then go silent on an SSE stream
   * (events and keep-alive comments both count as activity), in milliseconds. Expiry aborts the
   * request, which in the modern era is its cancellation. Default 60000.
   */
  requestTimeoutMs?: number;
  /** The `x-mcp-header` parameters of a tool (modern `tools/call`), from `collectHeaderParams`. */
  headerParams?: (toolName: string) => readonly McpHeaderParam[] | undefined;
  /** Largest JSON response body, and largest single SSE event, in bytes. Default 64 MiB. */
  maxResponseBytes?: number;
  /** The fetch to send with. Default: the runtime's global `fetch`. */
  fetch?: HttpFetch;
  /**
   * Runs once after the transport has shut down and its streams have ended: for resources made
   * for this transport alone, such as the connection pool behind `fetch`.
   */
  closeFetch?: () => Promise<void>;
  /** Reconnection of legacy streams. */
  reconnect?: ReconnectOptions;
  /** How long `close()` waits for the legacy session `DELETE`, in milliseconds. Default 5000. */
  closeTimeoutMs?: number;
}

/**
 * Options of `SseClientTransport` (the 2024-11-05 HTTP+SSE transport).
 *
 * @experimental
 */
export interface SseClientOptions {
  /** The SSE endpoint (GET). */
  url: string | URL;
  /** Extra headers for every request. */
  headers?: HttpHeadersOption;
  /** Authorizes every request and answers 401/403 challenges (e.g. `OAuthProvider`). */
  auth?: HttpAuthorizer;
  /** How long `start()` waits for the `endpoint` event, in milliseconds. Default 30000. */
  endpointTimeoutMs?: number;
  /** How long one POST may take, in milliseconds. Default 60000. */
  requestTimeoutMs?: number;
  /** Largest single SSE event, in bytes. Default 64 MiB. */
  maxEventBytes?: number;
  /** The fetch to send with. Default: the runtime's global `fetch`. */
  fetch?: HttpFetch;
  /**
   * Runs once after the transport has shut down and its streams have ended: for resources made
   * for this transport alone, such as the connection pool behind `fetch`.
   */
  closeFetch?: () => Promise<void>;
}

/** Reconnection settings with every default filled in. */
export type ResolvedReconnect = Required<ReconnectOptions>;

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

export function resolveReconnect(options: ReconnectOptions = {}): ResolvedReconnect {
  return {
    initialDelayMs: options.initialDelayMs ?? 1_000,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    maxRetries: options.maxRetries ?? 5,
  };
}

/** The wait before reconnection attempt `failures + 1`; the server's `retry` wins. */
export function reconnectDelay(
  failures: number,
  serverRetryMs: number | undefined,
  reconnect: ResolvedReconnect,
): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  return Math.min(reconnect.initialDelayMs * 2 ** failures, reconnect.maxDelayMs);
}
