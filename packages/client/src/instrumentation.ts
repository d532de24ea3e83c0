/**
 * The instrumentation hook of `McpClient`: every request a connected client sends (each input
 * round included, in both eras and on every transport) is announced once before it goes out and
 * reported once when it settles. Tracing (such as
 * `@twofold/client/opentelemetry`) plugs in here; the hook itself knows no tracing library.
 */
import type { RequestId, TraceContext } from '@twofold/protocol/experimental';

/**
 * Observes the requests of a connected client (`McpClientOptions.instrumentation`). The
 * connection's own handshake (era probe, `initialize`, the first `server/discover`) and the
 * long-lived `listen` streams are not reported; notifications neither. Its functions must not
 * throw: a failure there fails the request.
 *
 * @example
 * ```ts
 * const instrumentation: ClientInstrumentation = {
 *   startRequest(request) {
 *     const started = Date.now();
 *     return {
 *       end: (outcome) => console.log(request.method, outcome.ok, Date.now() - started),
 *     };
 *   },
 * };
 * const client = await McpClient.connect(target, { clientInfo, instrumentation });
 * ```
 * @experimental
 */
export interface ClientInstrumentation {
  /** Called just before a request is sent; returns how that request is followed. */
  startRequest(request: InstrumentedClientRequest): ClientRequestObserver;
}

/**
 * A request about to be sent, with what the client knows of its connection.
 *
 * @experimental
 */
export interface InstrumentedClientRequest {
  method: string;
  params: Record<string, unknown> | undefined;
  era: 'modern' | 'legacy';
  /** The protocol version in use as the request starts. */
  protocolVersion: string;
  /** Whether messages travel over HTTP (else over a stream: stdio or any other `Transport`). */
  http: boolean;
  /** The legacy HTTP session (`MCP-Session-Id`), when there is one. */
  sessionId?: string | undefined;
}

/**
 * How one request is followed.
 *
 * @experimental
 */
export interface ClientRequestObserver {
  /**
   * W3C trace context for the request's `_meta` (and so for the HTTP headers the transports
   * mirror from it). A `trace` given to the call or to the client wins over it.
   */
  trace?: TraceContext | undefined;
  /** The JSON-RPC id the request went out with (again with a new id on a modern version retry). */
  sent?(id: RequestId): void;
  /**
   * Called exactly once: with the result, or with the error the request rejects with
   * (`ProtocolError` for an error response, `LocalError` such as `REQUEST_TIMEOUT`).
   */
  end(outcome: ClientRequestOutcome): void;
}

/**
 * How a request ended.
 *
 * @experimental
 */
export type ClientRequestOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: unknown };
