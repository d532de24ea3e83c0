/**
 * OpenTelemetry tracing for `McpServer`: a SERVER span per request, named and described by the
 * OpenTelemetry semantic conventions for MCP, continuing the caller's trace from `_meta` (or the
 * HTTP `traceparent` header), with the handler running inside it. Needs `@opentelemetry/api` (an
 * optional peer dependency); the SDK and its exporters are the application's choice.
 *
 * @experimental
 * @packageDocumentation
 */
import {
  type Context,
  context,
  createTraceState,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  describeMcpFailure,
  describeMcpSpan,
  type JsonRpcResponse,
  parseTraceparent,
  type TraceContext,
} from '@twofold/protocol/experimental';
import type { ServerInstrumentation } from './core/instrumentation';
import { version } from './index';

/**
 * Where the spans go.
 *
 * @experimental
 */
export interface OpenTelemetryOptions {
  /** The tracer to use. Default: the provider's tracer named `@twofold/server`. */
  tracer?: Tracer;
  /** The provider of the default tracer. Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
}

/**
 * The `ServerInstrumentation` that traces with OpenTelemetry. Each request gets a SERVER span
 * (`{mcp.method.name} {tool or prompt}`, with `mcp.method.name`, `jsonrpc.request.id`,
 * `gen_ai.tool.name`, `mcp.protocol.version`, `mcp.session.id` on a legacy HTTP session and
 * `network.transport: tcp` over HTTP). Its parent is the caller's span from the request's trace
 * context, the active span then being linked; without trace context, the active context. The
 * handler runs with the span active, so spans it starts nest under it. The span ends with status
 * ERROR and `error.type` on an error response (the code) or a tool result with `isError`
 * (`tool_error`). Notifications get no span.
 *
 * @example
 * ```ts
 * import { McpServer } from '@twofold/server/experimental';
 * import { openTelemetry } from '@twofold/server/opentelemetry';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0', instrumentation: openTelemetry() });
 * ```
 * @experimental
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): ServerInstrumentation {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = options.tracer ?? provider.getTracer('@twofold/server', version);
  return {
    startRequest(request) {
      const { name, attributes } = describeMcpSpan(request, request);
      if (request.http) attributes['network.transport'] = 'tcp';
      const ambient = context.active();
      const parent = callerContext(ambient, request.trace);
      const ambientSpan = trace.getSpan(ambient);
      const links: Link[] =
        parent !== ambient && ambientSpan !== undefined
          ? [{ context: ambientSpan.spanContext() }]
          : [];
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
      const active = trace.setSpan(parent, span);
      return {
        run: (handle) => context.with(active, handle),
        end: (response) => endSpan(span, request.method, response),
      };
    },
  };
}

/** `ambient` with the caller's span (from its trace context) as the remote parent. */
function callerContext(ambient: Context, caller: TraceContext | undefined): Context {
  const parent =
    caller?.traceparent === undefined ? undefined : parseTraceparent(caller.traceparent);
  if (parent === undefined) return ambient;
  return trace.setSpanContext(ambient, {
    ...parent,
    isRemote: true,
    ...(caller?.tracestate ? { traceState: createTraceState(caller.tracestate) } : {}),
  });
}

function endSpan(span: Span, method: string, response: JsonRpcResponse): void {
  const failure = describeMcpFailure(method, response);
  if (failure !== undefined) {
    span.setAttribute('error.type', failure.errorType);
    if (failure.statusCode !== undefined) {
      span.setAttribute('rpc.response.status_code', failure.statusCode);
    }
    const { message } = failure;
    span.setStatus({ code: SpanStatusCode.ERROR, ...(message === undefined ? {} : { message }) });
  }
  span.end();
}
