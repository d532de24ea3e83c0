/**
 * The two hooks a proxy (the `twofold bridge`) needs from the dispatchers: the request's trace
 * context on `RequestContext.trace`, in both eras, and `Operations.watchResource`, told which
 * URIs legacy subscriptions and modern listens want updates for, and when they stop.
 */
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import type { ServedServer } from '../src/core/served-server';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import { eventually, modernParams, TestPeer } from './support/peer';
import { cleanups, resultOf, useCleanups } from './support/responses';
import { createTestServer } from './support/test-server';

useCleanups();

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const TRACE = { traceparent: TRACEPARENT, tracestate: 'vendor=1', baggage: 'user=ada' };

async function connect(server: ServedServer) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await serveTransport(server, serverEnd);
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(() => peer.close());
  return peer;
}

/** A server whose `trace` tool answers with the trace context it was handed, as JSON. */
function traceServer(): McpServer {
  const server = new McpServer({ name: 'trace-test', version: '1.0.0' });
  server.registerTool({
    name: 'trace',
    handler: (_args, context) => JSON.stringify(context.trace ?? null),
  });
  return server;
}

function textOf(result: Record<string, unknown>): unknown {
  const [block] = result.content as { text: string }[];
  return JSON.parse(block?.text ?? 'null');
}

async function startLegacy(peer: TestPeer): Promise<void> {
  resultOf(
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    }),
  );
  await peer.notify('notifications/initialized');
}

describe('RequestContext.trace', () => {
  it('carries the W3C trace context of a modern request', async () => {
    const peer = await connect(traceServer());
    const traced = await peer.request('tools/call', modernParams({ name: 'trace' }, TRACE));
    expect(textOf(resultOf(traced))).toEqual(TRACE);
    const untraced = await peer.request('tools/call', modernParams({ name: 'trace' }));
    expect(textOf(resultOf(untraced))).toBeNull();
  });

  it('carries the trace context of a legacy request, and drops a malformed one', async () => {
    const peer = await connect(traceServer());
    await startLegacy(peer);
    const traced = await peer.request('tools/call', { name: 'trace', _meta: TRACE });
    expect(textOf(resultOf(traced))).toEqual(TRACE);
    const malformed = await peer.request('tools/call', {
      name: 'trace',
      _meta: { traceparent: 'not-a-traceparent' },
    });
    expect(textOf(resultOf(malformed))).toBeNull();
  });
});

/** The test server with a `watchResource` that records what is watched right now. */
function watchingServer() {
  const server = createTestServer();
  const watched: string[] = [];
  server.operations.watchResource = (uri) => {
    watched.push(uri);
    return () => watched.splice(watched.indexOf(uri), 1);
  };
  return { server, watched };
}

describe('Operations.watchResource', () => {
  it('follows a legacy session: subscribe, unsubscribe, and the end of the session', async () => {
    const { server, watched } = watchingServer();
    const peer = await connect(server);
    await startLegacy(peer);
    resultOf(await peer.request('resources/subscribe', { uri: 'test://static' }));
    // A second subscribe to the same URI is the same subscription.
    resultOf(await peer.request('resources/subscribe', { uri: 'test://static' }));
    resultOf(await peer.request('resources/subscribe', { uri: 'test://items/1' }));
    expect(watched).toEqual(['test://static', 'test://items/1']);
    resultOf(await peer.request('resources/unsubscribe', { uri: 'test://static' }));
    expect(watched).toEqual(['test://items/1']);
    await peer.close();
    await eventually(() => watched.length === 0);
  });

  it("follows a modern listen's resourceSubscriptions until it is cancelled", async () => {
    const { server, watched } = watchingServer();
    const peer = await connect(server);
    const id = peer.fire(
      'subscriptions/listen',
      modernParams({ notifications: { resourceSubscriptions: ['test://static'] } }),
    );
    await eventually(() => watched.length === 1);
    expect(watched).toEqual(['test://static']);
    await peer.notify('notifications/cancelled', { requestId: id });
    await eventually(() => watched.length === 0);
  });
});
