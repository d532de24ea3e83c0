/**
 * OpenTelemetry tracing for `McpClient`: a CLIENT span per request, named and described by the
 * OpenTelemetry semantic conventions for MCP, whose context travels to the server in the
 * request's `_meta` (and so in the HTTP `traceparent` header). Needs `@opentelemetry/api` (an
 * optional peer dependency); the SDK and its exporters are the application's choice.
 *
 * @experimental
 * @packageDocumentation
 */
import {
  isSpanContextValid,
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
  formatTraceparent,
  type TraceContext,
} from '@twofold/protocol/experimental';
import { version } from './index';
import type {
  ClientInstrumentation,
  ClientRequestOutcome,
  InstrumentedClientRequest,
} from './instrumentation';

/**
 * Where the spans go.
 *
 * @experimental
 */
export interface OpenTelemetryOptions {
  /** The tracer to use. Default: the provider's tracer named `@twofold/client`. */
  tracer?: Tracer;
  /** The provider of the default tracer. Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
}

/**
 * The `ClientInstrumentation` that traces with OpenTelemetry. Each request gets a CLIENT span
 * (`{mcp.method.name} {tool or prompt}`, with `mcp.method.name`, `jsonrpc.request.id`,
 * `gen_ai.tool.name`, `mcp.protocol.version`, `mcp.session.id` on a legacy HTTP session and
 * `network.transport: tcp` over HTTP) whose parent is the active context. The span's context is
 * sent as `traceparent`/`tracestate` unless the call or the client gives its own `trace`. It
 * ends with status ERROR and `error.type` on an error response (the code), a local failure such
 * as a timeout (the `LocalError` code) or a tool result with `isError` (`tool_error`).
 *
 * @example
 * ```ts
 * import { McpClient } from '@twofold/client/experimental';
 * import { openTelemetry } from '@twofold/client/opentelemetry';
 *
 * const client = await McpClient.connect(target, {
 *   clientInfo: { name: 'my-app', version: '1.0.0' },
 *   instrumentation: openTelemetry(),
 * });
 * ```
 * @experimental
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): ClientInstrumentation {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = options.tracer ?? provider.getTracer('@twofold/client', version);
  return {
    startRequest(request) {
      const span = startClientSpan(tracer, request);
      return {
        trace: traceContextOf(span),
        sent: (id) => span.setAttribute('jsonrpc.request.id', String(id)),
        end: (outcome) => endSpan(span, request.method, outcome),
      };
    },
  };
}

function startClientSpan(tracer: Tracer, request: InstrumentedClientRequest): Span {
  const { name, attributes } = describeMcpSpan(request, request);
  if (request.http) attributes['network.transport'] = 'tcp';
  return tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
}

/** The W3C trace context of `span`; none for the invalid context of a tracer without an SDK. */
function traceContextOf(span: Span): TraceContext | undefined {
  const context = span.spanContext();
  if (!isSpanContextValid(context)) return undefined;
  const traceparent = formatTraceparent(context);
  const tracestate = context.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

function endSpan(span: Span, method: string, outcome: ClientRequestOutcome): void {
  const failure = describeMcpFailure(method, outcome);
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
