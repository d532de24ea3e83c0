import { PassThrough } from 'node:stream';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../src/node';
import { serveTransport } from '../src/serve/serve-transport';
import { eventually, modernParams, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';
import { createTestServer } from './support/test-server';

useCleanups();

async function connect(server = createTestServer()) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const connection = await serveTransport(server, serverEnd);
  const peer = new TestPeer(clientEnd, () => ({ action: 'accept', content: { name: 'Ada' } }));
  await peer.start();
  cleanups.push(() => peer.close());
  return { peer, server, connection };
}

describe('serveTransport', () => {
  it('serves modern requests, then a legacy session, then modern again on one connection', async () => {
    const { peer } = await connect();
    const discover = resultOf(await peer.request('server/discover', modernParams()));
    expect(discover.resultType).toBe('complete');
    const init = resultOf(
      await peer.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    expect(init.protocolVersion).toBe('2025-06-18');
    await peer.notify('notifications/initialized');
    const legacyList = resultOf(await peer.request('tools/list'));
    expect(legacyList).not.toHaveProperty('resultType');
    const modernList = resultOf(await peer.request('tools/list', modernParams()));
    expect(modernList).toMatchObject({ resultType: 'complete', ttlMs: 60_000 });
    // The legacy session reaches the client with a real request.
    expect(resultOf(await peer.request('tools/call', { name: 'ask' }))).toEqual({
      content: [{ type: 'text', text: 'hello Ada' }],
    });
    // A modern request that did not declare elicitation cannot be asked for it.
    expect(errorOf(await peer.request('tools/call', modernParams({ name: 'ask' }))).code).toBe(
      -32021,
    );
    expect(errorOf(await peer.request('ping', modernParams())).code).toBe(-32601);
  });

  it('names its versions when a modern-only server gets initialize', async () => {
    const { peer } = await connect(createTestServer({ versions: { legacy: [] } }));
    const error = errorOf(
      await peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    expect(error).toMatchObject({
      code: -32602,
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  });

  it('answers ping and -32602 to requests without _meta before any initialize', async () => {
    const { peer } = await connect();
    expect(resultOf(await peer.request('ping'))).toEqual({});
    expect(errorOf(await peer.request('tools/list')).code).toBe(-32602);
  });

  it('sends request-scoped notifications before the response, and none for notifications', async () => {
    const { peer } = await connect();
    await peer.notify('notifications/cancelled', { requestId: 'unknown' });
    const response = await peer.request(
      'tools/call',
      modernParams({ name: 'echo', arguments: { text: 'x' } }, { progressToken: 't' }),
    );
    expect(resultOf(response).content).toEqual([{ type: 'text', text: 'x' }]);
    expect(peer.notifications.map((n) => n.params?.progress)).toEqual([1, 2]);
    expect(peer.strayResponses).toEqual([]);
  });

  it('aborts a modern request on notifications/cancelled and sends nothing more for it', async () => {
    const { peer, server } = await connect();
    const id = peer.fire('tools/call', modernParams({ name: 'hang' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await peer.notify('notifications/cancelled', { requestId: id, reason: 'user' });
    await eventually(() => server.operations.aborted.length === 1);
    expect(resultOf(await peer.request('server/discover', modernParams())).resultType).toBe(
      'complete',
    );
    expect(peer.answerCounts.has(id)).toBe(false);
  });

  it('aborts in-flight handlers and stops listening when the client goes away', async () => {
    const { peer, server, connection } = await connect();
    peer.fire('tools/call', modernParams({ name: 'hang' }));
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    await peer.notify('notifications/initialized');
    peer.fire('tools/call', { name: 'hang' });
    await eventually(() => server.operations.listenerCount === 1);
    await peer.close();
    await connection.closed;
    await eventually(() => server.operations.aborted.length === 2);
    expect(server.operations.listenerCount).toBe(0);
  });

  it('answers 1,000 concurrent modern requests exactly once each', async () => {
    const { peer } = await connect();
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        peer.request('tools/call', modernParams({ name: 'echo', arguments: { text: String(i) } })),
      ),
    );
    for (const [i, r] of responses.entries()) {
      expect(resultOf(r).content).toEqual([{ type: 'text', text: String(i) }]);
    }
    expect(peer.answerCounts.size).toBe(1000);
    expect([...peer.answerCounts.values()].every((n) => n === 1)).toBe(true);
  });
});

describe('serveStdio', () => {
  it('serves newline-delimited JSON on the given streams and answers bad input without an id', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: unknown[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) lines.push(JSON.parse(line));
    });
    const errors: Error[] = [];
    const connection = await serveStdio(createTestServer(), {
      input,
      output,
      onerror: (e) => errors.push(e),
    });
    input.write('{not json\n');
    input.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: modernParams() })}\n`,
    );
    await eventually(() => lines.length === 3);
    expect(lines[0]).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    expect(lines[0]).not.toHaveProperty('id');
    expect(lines[1]).toMatchObject({ error: { code: -32600 } });
    expect(lines[2]).toMatchObject({ id: 2, result: { resultType: 'complete' } });
    expect(errors).toHaveLength(2);
    input.end();
    await connection.closed;
  });
});
