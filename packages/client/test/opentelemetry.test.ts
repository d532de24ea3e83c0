/**
 * `openTelemetry()` of `@twofold/client/opentelemetry` against a real twofold server traced with
 * `@twofold/server/opentelemetry`, with the real OpenTelemetry SDK (in-memory exporter,
 * AsyncLocalStorage context), in both eras, in memory and over HTTP: CLIENT span names and
 * attributes, one trace from the client span to the server span to a span the tool handler
 * starts, the active span as the client span's parent, an explicit `trace` winning, error types.
 */
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { LocalErrorCode, ProtocolError, parseTraceparent } from '@twofold/protocol/experimental';
import type { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { openTelemetry as serverTelemetry } from '@twofold/server/opentelemetry';
import { serve } from '@twofold/transports/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpServer } from '../src/node';
import { openTelemetry } from '../src/opentelemetry';
import {
  connectClient,
  ERAS,
  type Era,
  onCleanup,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from './support/client-harness';
import { buildApiServer } from './support/client-server';

useClientCleanups();

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
afterEach(() => exporter.reset());

/** The API server, traced into `exporter`, with a tool that starts a span and one that throws. */
function tracedServer(): McpServer {
  const server = buildApiServer({ instrumentation: serverTelemetry({ tracerProvider: provider }) });
  server.registerTool({
    name: 'work',
    handler: () => {
      provider.getTracer('handler').startSpan('inner work').end();
      return 'done';
    },
  });
  server.registerTool({
    name: 'fail',
    handler: () => {
      throw new Error('the tool broke');
    },
  });
  server.registerTool({
    name: 'hang',
    handler: (_args, { signal }) =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'))),
  });
  return server;
}

function connectTraced(era: Era, over: 'memory' | 'http', options = {}) {
  const instrumentation = openTelemetry({ tracerProvider: provider });
  if (over === 'memory') {
    return connectClient(serveTarget(tracedServer()).target, { era, instrumentation, ...options });
  }
  return (async () => {
    const endpoint = await serve(createServerHttpHandler(tracedServer()), {
      host: '127.0.0.1',
      port: 0,
    });
    onCleanup(() => endpoint.close());
    return connectClient(httpServer({ url: endpoint.url }), { era, instrumentation, ...options });
  })();
}

/** The finished span of `kind` named `name` (the newest when there are several). */
function spanOf(kind: SpanKind, name: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((s) => s.kind === kind && s.name === name);
  const span = spans.at(-1);
  if (span === undefined) throw new Error(`no ${SpanKind[kind]} span ${name}`);
  return span;
}

describe.each(ERAS)('openTelemetry() on the client (%s)', (era) => {
  it.each(['memory', 'http'] as const)('traces a tool call into one trace (%s)', async (over) => {
    const { client } = await connectTraced(era, over);
    await client.callTool('work');

    const clientSpan = spanOf(SpanKind.CLIENT, 'tools/call work');
    const serverSpan = spanOf(SpanKind.SERVER, 'tools/call work');
    expect(clientSpan.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'work',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': expect.any(String),
      'mcp.protocol.version': client.protocolVersion,
    });
    expect(clientSpan.parentSpanContext).toBeUndefined();
    expect(serverSpan.attributes['jsonrpc.request.id']).toBe(
      clientSpan.attributes['jsonrpc.request.id'],
    );
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    const inner = spanOf(SpanKind.INTERNAL, 'inner work');
    expect(inner.parentSpanContext?.spanId).toBe(serverSpan.spanContext().spanId);

    const transport = over === 'http' ? 'tcp' : undefined;
    expect(clientSpan.attributes['network.transport']).toBe(transport);
    expect(serverSpan.attributes['network.transport']).toBe(transport);
    const sessionId = serverSpan.attributes['mcp.session.id'];
    expect(sessionId !== undefined).toBe(era === 'legacy' && over === 'http');
    expect(clientSpan.attributes['mcp.session.id']).toBe(sessionId);
  });

  it('makes the active span the parent of the client span', async () => {
    const { client } = await connectTraced(era, 'memory');
    const app = provider.getTracer('app');
    await app.startActiveSpan('handle user request', async (span) => {
      await client.listTools();
      span.end();
    });
    const parent = spanOf(SpanKind.INTERNAL, 'handle user request');
    const list = spanOf(SpanKind.CLIENT, 'tools/list');
    expect(list.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(spanOf(SpanKind.SERVER, 'tools/list').spanContext().traceId).toBe(
      parent.spanContext().traceId,
    );
  });

  it('lets an explicit trace option win over the client span', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const { client } = await connectTraced(era, 'memory', { trace: { traceparent } });
    await client.callTool('work');
    const serverSpan = spanOf(SpanKind.SERVER, 'tools/call work');
    expect(serverSpan.parentSpanContext?.spanId).toBe(parseTraceparent(traceparent)?.spanId);
    expect(spanOf(SpanKind.CLIENT, 'tools/call work').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records error types: JSON-RPC code, tool_error, abort', async () => {
    const { client } = await connectTraced(era, 'memory');
    const unknown = await rejectionOf(client.request('nope/never'));
    expect(unknown).toBeInstanceOf(ProtocolError);
    const failed = spanOf(SpanKind.CLIENT, 'nope/never');
    expect(failed.attributes).toMatchObject({
      'error.type': '-32601',
      'rpc.response.status_code': '-32601',
    });
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: unknown.message });
    expect(spanOf(SpanKind.SERVER, 'nope/never').attributes['error.type']).toBe('-32601');

    expect((await client.callTool('fail')).isError).toBe(true);
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const span = spanOf(kind, 'tools/call fail');
      expect(span.attributes['error.type']).toBe('tool_error');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }

    const controller = new AbortController();
    const hanging = client.callTool('hang', {}, { signal: controller.signal });
    controller.abort();
    await rejectionOf(hanging);
    expect(spanOf(SpanKind.CLIENT, 'tools/call hang').attributes['error.type']).toBe(
      LocalErrorCode.RequestAborted,
    );
  });
});
