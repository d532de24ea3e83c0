/**
 * The instrumentation hook of `McpServer` (`McpServerOptions.instrumentation`): every request the
 * server answers, in both eras, over stdio, HTTP or any transport, is announced once when it
 * arrives, handled inside the observer's `run`, and reported once with its response. Tracing
 * (such as `@twofold/server/opentelemetry`) plugs in here; the hook knows no tracing library.
 */
import {
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  readTraceContext,
  type TraceContext,
} from '@twofold/protocol/experimental';

/**
 * Observes the requests a server answers. Notifications are not reported. Its functions must
 * not throw: a failure there fails the request's handling.
 *
 * @example
 * ```ts
 * const instrumentation: ServerInstrumentation = {
 *   startRequest(request) {
 *     const started = Date.now();
 *     return {
 *       run: (handle) => handle(),
 *       end: (response) => console.log(request.method, 'error' in response, Date.now() - started),
 *     };
 *   },
 * };
 * const server = new McpServer({ name: 'demo', version: '1.0.0', instrumentation });
 * ```
 * @experimental
 */
export interface ServerInstrumentation {
  /** Called when a request arrives, before anything about it is checked. */
  startRequest(request: InstrumentedServerRequest): ServerRequestObserver;
}

/**
 * A request as it arrived, with what the server knows of its channel.
 *
 * @experimental
 */
export interface InstrumentedServerRequest {
  method: string;
  params: Record<string, unknown> | undefined;
  id: RequestId;
  era: 'modern' | 'legacy';
  /** Modern: the version the request names; legacy: the session's, once negotiated. */
  protocolVersion?: string | undefined;
  /** The legacy HTTP session (`MCP-Session-Id`), when there is one. */
  sessionId?: string | undefined;
  /** The caller's W3C trace context: from `_meta`, else from the HTTP trace headers. */
  trace?: TraceContext | undefined;
  /** Whether the request came over HTTP. */
  http: boolean;
}

/**
 * How one request is followed.
 *
 * @experimental
 */
export interface ServerRequestObserver {
  /**
   * Runs the handling of the request (its handler included) and returns what `handle` returns:
   * the place to make a context current for the handler's own work.
   */
  run<T>(handle: () => T): T;
  /** Called exactly once, with the response (also for a legacy request cancelled meanwhile). */
  end(response: JsonRpcResponse): void;
}

/** The channel facts of one request, as its era's entry point knows them. */
export interface RequestChannel {
  era: 'modern' | 'legacy';
  protocolVersion: string | undefined;
  sessionId: string | undefined;
  /** HTTP request headers (lower-case names); none off HTTP. */
  headers: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Answers `message` through `answer`, reported to `instrumentation`. Callers without
 * instrumentation call `answer` themselves: this wrapper costs a frame per request.
 */
export async function instrumented(
  instrumentation: ServerInstrumentation,
  message: JsonRpcRequest,
  channel: RequestChannel,
  answer: () => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const { method, params, id } = message;
  const { era, protocolVersion, sessionId, headers } = channel;
  const trace = readTraceContext(params?._meta) ?? readTraceContext(headers);
  const observer = instrumentation.startRequest({
    method,
    params,
    id,
    era,
    http: headers !== undefined,
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(trace === undefined ? {} : { trace }),
  });
  const response = await observer.run(answer);
  observer.end(response);
  return response;
}
