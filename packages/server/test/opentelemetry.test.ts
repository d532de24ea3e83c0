/**
 * `openTelemetry()` of `@twofold/server/opentelemetry` with the real OpenTelemetry SDK (in-memory
 * exporter, AsyncLocalStorage context): SERVER spans for requests of both eras over a transport
 * and over HTTP, their names and attributes, the caller's trace continued from `_meta` or from the
 * `traceparent` header, spans made by a handler nested under the server span, and error types.
 */
import { context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { parseTraceparent } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import type { ServedEndpoint } from '@twofold/transports/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/node';
import { openTelemetry } from '../src/opentelemetry';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import { legacyPost, messagesOf, modernPost } from './support/http-posts';
import { MODERN, modernParams, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';

useCleanups();

const CALLER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const caller = parseTraceparent(CALLER);

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

/** A server traced into `exporter`, with a tool that starts a span of its own and one that throws. */
function tracedServer(): McpServer {
  const server = new McpServer({
    name: 'traced',
    version: '1.0.0',
    instrumentation: openTelemetry({ tracerProvider: provider }),
  });
  server.registerTool({
    name: 'work',
    handler: () => {
      const inner: Span = provider.getTracer('handler').startSpan('inner work');
      inner.end();
      return 'done';
    },
  });
  server.registerTool({
    name: 'fail',
    handler: () => {
      throw new Error('the tool broke');
    },
  });
  return server;
}

async function peerOn(server: McpServer): Promise<TestPeer> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const connection = await serveTransport(server, serverEnd);
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(async () => {
    await peer.close();
    await connection.close();
  });
  return peer;
}

async function httpOn(server: McpServer): Promise<URL> {
  const endpoint: ServedEndpoint = await serveHttp(server, { host: '127.0.0.1', port: 0 });
  cleanups.push(() => endpoint.close());
  return endpoint.url;
}

function spanNamed(name: string): ReadableSpan {
  const span = exporter.getFinishedSpans().find((s) => s.name === name);
  if (span === undefined) throw new Error(`no span ${name}`);
  return span;
}

async function legacyHandshake(peer: TestPeer): Promise<void> {
  resultOf(
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'peer', version: '1' },
    }),
  );
  await peer.notify('notifications/initialized');
}

describe('openTelemetry() on the server, over a transport', () => {
  it('modern: a SERVER span continuing the _meta trace, with the handler span nested', async () => {
    const peer = await peerOn(tracedServer());
    resultOf(
      await peer.request('tools/call', modernParams({ name: 'work' }, { traceparent: CALLER }), 7),
    );

    const span = spanNamed('tools/call work');
    expect(span.kind).toBe(1); // SpanKind.SERVER
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': '7',
      'gen_ai.tool.name': 'work',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': MODERN,
    });
    expect(span.spanContext().traceId).toBe(caller?.traceId);
    expect(span.parentSpanContext).toMatchObject({ spanId: caller?.spanId, isRemote: true });
    expect(span.status.code).toBe(0); // UNSET

    const inner = spanNamed('inner work');
    expect(inner.spanContext().traceId).toBe(caller?.traceId);
    expect(inner.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });

  it('modern: error.type is the JSON-RPC code, or tool_error for a tool that threw', async () => {
    const peer = await peerOn(tracedServer());
    expect(errorOf(await peer.request('nope/never', modernParams())).code).toBe(-32601);
    const unknown = spanNamed('nope/never');
    expect(unknown.attributes).toMatchObject({
      'error.type': '-32601',
      'rpc.response.status_code': '-32601',
    });
    expect(unknown.status).toEqual({ code: 2, message: 'Method not found: nope/never' });

    expect(
      resultOf(await peer.request('tools/call', modernParams({ name: 'fail' }))),
    ).toMatchObject({ isError: true });
    const failed = spanNamed('tools/call fail');
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.status.code).toBe(2); // ERROR
  });

  it('legacy: spans for initialize and calls, in the negotiated version, without a parent', async () => {
    const peer = await peerOn(tracedServer());
    await legacyHandshake(peer);
    resultOf(await peer.request('tools/call', { name: 'work' }));

    expect(spanNamed('initialize').attributes).not.toHaveProperty('mcp.protocol.version');
    const span = spanNamed('tools/call work');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
    });
    expect(span.attributes).not.toHaveProperty('network.transport');
    expect(span.parentSpanContext).toBeUndefined();
    expect(spanNamed('inner work').parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    // Notifications get no span.
    expect(exporter.getFinishedSpans().map((s) => s.name)).not.toContain(
      'notifications/initialized',
    );
  });
});

describe('openTelemetry() on the server, over HTTP', () => {
  it('modern: the parent comes from the traceparent header when _meta has none', async () => {
    const url = await httpOn(tracedServer());
    const response = await modernPost(url, 1, 'tools/call', modernParams({ name: 'work' }), {
      headers: { traceparent: CALLER },
    });
    expect((await messagesOf(response))[0]).toMatchObject({
      result: { content: [{ type: 'text', text: 'done' }] },
    });

    const span = spanNamed('tools/call work');
    expect(span.attributes['network.transport']).toBe('tcp');
    expect(span.spanContext().traceId).toBe(caller?.traceId);
    expect(span.parentSpanContext?.spanId).toBe(caller?.spanId);
  });

  it('legacy: the span names the session', async () => {
    const url = await httpOn(tracedServer());
    const init = await legacyPost(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'p', version: '1' },
      },
    });
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await (await legacyPost(url, initialized, headers)).text();
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fail' } };
    expect((await messagesOf(await legacyPost(url, call, headers)))[0]).toMatchObject({
      result: { isError: true },
    });

    expect(sessionId).not.toBe('');
    expect(spanNamed('tools/call fail').attributes).toMatchObject({
      'mcp.session.id': sessionId,
      'network.transport': 'tcp',
      'error.type': 'tool_error',
    });
  });
});

describe('openTelemetry() without an SDK', () => {
  it('serves as before with the global no-op tracer', async () => {
    const server = new McpServer({ name: 'plain', version: '1', instrumentation: openTelemetry() });
    server.registerTool({ name: 'work', handler: () => 'done' });
    const peer = await peerOn(server);
    const result = resultOf(await peer.request('tools/call', modernParams({ name: 'work' })));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
