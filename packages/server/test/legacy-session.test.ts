import { LEGACY_VERSIONS } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { startLegacySession } from '../src/legacy/start-session';
import { eventually, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';
import { schemaErrors, specAvailable } from './support/spec-schema';
import { createTestServer } from './support/test-server';

useCleanups();

async function open(
  answer?: ConstructorParameters<typeof TestPeer>[1],
  server = createTestServer(),
) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const errors: Error[] = [];
  const session = await startLegacySession(server, serverEnd, {
    onerror: (e) => errors.push(e),
    requestTimeoutMs: 2_000,
  });
  const peer = new TestPeer(clientEnd, answer);
  await peer.start();
  cleanups.push(() => peer.close());
  return { peer, session, server, errors };
}

async function initialize(
  peer: TestPeer,
  version: string,
  capabilities: Record<string, unknown> = {},
) {
  const response = await peer.request('initialize', {
    protocolVersion: version,
    capabilities,
    clientInfo: { name: 'test-client', version: '0.1.0' },
  });
  await peer.notify('notifications/initialized');
  return resultOf(response);
}

describe.each(LEGACY_VERSIONS)('legacy session %s', (version) => {
  it('negotiates the version and serves the features without modern fields', async () => {
    const { peer, session, server } = await open();
    const init = await initialize(peer, version);
    expect(init).toEqual({
      protocolVersion: version,
      capabilities: server.operations.capabilities(),
      serverInfo: server.serverInfo,
      instructions: 'Use echo to echo.',
    });
    expect(session.protocolVersion).toBe(version);
    if (specAvailable) expect(schemaErrors(version, 'InitializeResult', init)).toEqual([]);

    const list = resultOf(await peer.request('tools/list'));
    expect(list).not.toHaveProperty('resultType');
    expect(list).not.toHaveProperty('ttlMs');
    expect(list).not.toHaveProperty('cacheScope');
    if (specAvailable) expect(schemaErrors(version, 'ListToolsResult', list)).toEqual([]);
    const called = resultOf(
      await peer.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
    );
    expect(called).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const read = resultOf(await peer.request('resources/read', { uri: 'test://static' }));
    expect(read).toEqual({ contents: [{ uri: 'test://static', text: 'static text' }] });
    expect(resultOf(await peer.request('ping'))).toEqual({});
  });

  it('answers not-found with -32002 for resources and -32602 for tools and prompts', async () => {
    const { peer } = await open();
    await initialize(peer, version);
    expect(errorOf(await peer.request('resources/read', { uri: 'test://missing' })).code).toBe(
      -32002,
    );
    expect(errorOf(await peer.request('tools/call', { name: 'missing' })).code).toBe(-32602);
    expect(errorOf(await peer.request('prompts/get', { name: 'missing' })).code).toBe(-32602);
    expect(errorOf(await peer.request('server/discover')).code).toBe(-32601);
    expect(errorOf(await peer.request('tasks/list')).code).toBe(-32601);
  });
});

describe('legacy session lifecycle', () => {
  it('picks the newest offered version for one it does not offer', async () => {
    const { peer } = await open();
    expect((await initialize(peer, '2025-03-26')).protocolVersion).toBe('2025-11-25');
  });

  it('refuses requests before initialize (except ping) and a second initialize', async () => {
    const { peer } = await open();
    expect(errorOf(await peer.request('tools/list')).code).toBe(-32600);
    expect(resultOf(await peer.request('ping'))).toEqual({});
    await initialize(peer, '2025-11-25');
    expect(
      errorOf(
        await peer.request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
      ).code,
    ).toBe(-32600);
  });

  it('validates params against the negotiated revision', async () => {
    const { peer } = await open();
    await initialize(peer, '2025-06-18');
    expect(errorOf(await peer.request('tools/call', { name: 5 })).code).toBe(-32602);
    expect(errorOf(await peer.request('logging/setLevel', { level: 'loud' })).code).toBe(-32602);
  });

  it('sends logs at the session level and progress for a token', async () => {
    const { peer } = await open();
    await initialize(peer, '2025-11-25');
    await peer.request('tools/call', { name: 'echo', arguments: { text: 'a' } });
    expect(peer.notifications).toEqual([]);
    resultOf(await peer.request('logging/setLevel', { level: 'debug' }));
    await peer.request('tools/call', {
      name: 'echo',
      arguments: { text: 'b' },
      _meta: { progressToken: 9 },
    });
    expect(
      peer.notifications.map((n) => [n.method, n.params?.level ?? n.params?.progress]),
    ).toEqual([
      ['notifications/progress', 1],
      ['notifications/message', 'info'],
      ['notifications/message', 'debug'],
      ['notifications/progress', 2],
    ]);
  });

  it('forwards list changes after initialized and updates of subscribed resources only', async () => {
    const { peer, server } = await open();
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    server.operations.setToolEnabled('hang', false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(peer.notifications).toEqual([]);
    await peer.notify('notifications/initialized');
    await eventually(() => server.operations.listenerCount === 1);
    server.operations.setToolEnabled('hang', true);
    await peer.request('resources/subscribe', { uri: 'test://static' });
    server.operations.emit({ kind: 'resource-updated', uri: 'test://static' });
    server.operations.emit({ kind: 'resource-updated', uri: 'test://other' });
    await peer.request('resources/unsubscribe', { uri: 'test://static' });
    server.operations.emit({ kind: 'resource-updated', uri: 'test://static' });
    server.operations.emit({ kind: 'prompts' });
    await eventually(() => peer.notifications.length === 3);
    expect(peer.notifications.map((n) => [n.method, n.params?.uri])).toEqual([
      ['notifications/tools/list_changed', undefined],
      ['notifications/resources/updated', 'test://static'],
      ['notifications/prompts/list_changed', undefined],
    ]);
  });

  it('never answers notifications and stops listening when the transport closes', async () => {
    const { peer, server } = await open();
    await initialize(peer, '2025-11-25');
    await peer.notify('notifications/roots/list_changed');
    await peer.notify('notifications/unknown');
    await peer.notify('notifications/cancelled', { requestId: 'nothing' });
    expect(resultOf(await peer.request('ping'))).toEqual({});
    expect(peer.strayResponses).toEqual([]);
    expect([...peer.answerCounts.values()].every((n) => n === 1)).toBe(true);
    expect(server.operations.listenerCount).toBe(1);
    await peer.close();
    await eventually(() => server.operations.listenerCount === 0);
  });

  it('aborts the handler on notifications/cancelled and sends no response', async () => {
    const { peer, server } = await open();
    await initialize(peer, '2025-11-25');
    const id = peer.fire('tools/call', { name: 'hang' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await peer.notify('notifications/cancelled', { requestId: id });
    await eventually(() => server.operations.aborted.length === 1);
    expect(resultOf(await peer.request('ping'))).toEqual({});
    expect(peer.answerCounts.has(id)).toBe(false);
  });

  it('turns input requests into server-to-client requests and re-enters the handler', async () => {
    const { peer } = await open((request) => ({
      action: 'accept',
      content: { name: `Ada via ${request.method}` },
    }));
    await initialize(peer, '2025-11-25', { elicitation: {} });
    const result = resultOf(await peer.request('tools/call', { name: 'ask' }));
    expect(result).toEqual({
      content: [{ type: 'text', text: 'hello Ada via elicitation/create' }],
    });
    expect(peer.serverRequests).toHaveLength(1);
    expect(peer.serverRequests[0]?.params).toMatchObject({ message: 'Your name?' });
  });

  it('fails with -32021 when the client did not declare the capability an input request needs', async () => {
    const { peer } = await open();
    await initialize(peer, '2025-11-25');
    expect(errorOf(await peer.request('tools/call', { name: 'ask' })).code).toBe(-32021);
    expect(peer.serverRequests).toEqual([]);
  });

  it('round-trips a server request through the session handle and reports stray responses', async () => {
    const { peer, session, errors } = await open(() => ({
      roots: [{ uri: 'file:///tmp', name: 'tmp' }],
    }));
    await initialize(peer, '2025-11-25', { roots: {} });
    await expect(session.request('roots/list')).resolves.toEqual({
      roots: [{ uri: 'file:///tmp', name: 'tmp' }],
    });
    await peer.transport.send({ jsonrpc: '2.0', id: 999, result: {} });
    await eventually(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/unknown request id/);
    expect(resultOf(await peer.request('ping'))).toEqual({});
  });

  it('times out a server request the client never answers', async () => {
    const { peer, session } = await open(() => new Promise(() => undefined));
    await initialize(peer, '2025-11-25');
    await expect(session.request('ping', undefined, { timeoutMs: 20 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
    });
    await eventually(() => peer.notifications.some((n) => n.method === 'notifications/cancelled'));
  });

  it('answers a failing handler with -32603 and a safe message', async () => {
    const server = createTestServer();
    server.operations.listPrompts = () => {
      throw new Error('secret');
    };
    const { peer, errors } = await open(undefined, server);
    await initialize(peer, '2025-11-25');
    expect(errorOf(await peer.request('prompts/list'))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(errors.map((e) => e.message)).toEqual(['secret']);
  });
});
