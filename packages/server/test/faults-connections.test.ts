import { type JsonRpcResponse, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import {
  createServer,
  errorOf,
  LEGACY_INIT,
  legacyPost,
  memoryConnection,
  messagesOf,
  modernPost,
  resultOf,
  startHttp,
  stdioConnection,
  useCleanups,
} from './support/faults-harness';
import { eventually, modernParams } from './support/peer';

useCleanups();

describe('faults: oversized input on a stdio-like connection', () => {
  it('answers an oversized request with a -32600 error by the id its first bytes show, reports it, and keeps serving', async () => {
    const { server } = createServer();
    const { peer, errors, toServer } = await stdioConnection(server, 1024);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 'big',
      method: 'tools/call',
      params: modernParams({ name: 'echo', arguments: { text: 'x'.repeat(4096) } }),
    });
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024);
    // In pieces, the last one also carrying the start of the next line.
    toServer.write(big.slice(0, 600));
    toServer.write(big.slice(600, 2000));
    toServer.write(`${big.slice(2000)}\n`);

    const after = await peer.request(
      'tools/call',
      modernParams({ name: 'echo', arguments: { text: 'still here' } }),
    );
    expect(resultOf(after).content).toEqual([{ type: 'text', text: 'still here' }]);

    // The peer never sent 'big' through its request table, so the answer arrives as stray.
    expect(peer.strayResponses).toHaveLength(1);
    const [answer] = peer.strayResponses;
    expect(answer?.id).toBe('big');
    expect(errorOf(answer as JsonRpcResponse).code).toBe(-32600);
    expect(peer.answerCounts.get('big')).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LocalError);
    expect((errors[0] as LocalError).code).toBe(LocalErrorCode.MessageTooLarge);

    // Resynchronised: a second oversized line mid-stream is skipped the same way.
    toServer.write(`${big}\n`);
    const again = await peer.request('server/discover', modernParams());
    expect(resultOf(again).resultType).toBe('complete');
    expect(peer.answerCounts.get('big')).toBe(2);
    expect(errors).toHaveLength(2);
  });
});

describe('faults: a legacy HTTP client that disconnects mid-call', () => {
  it('keeps the handler running (a disconnect is not a cancel), serves the session, and drops the late result', async () => {
    const { server, observed } = createServer();
    const baseline = observed.changeListeners();
    // A session closes once idle: it can only be idle again if the dropped request was let go.
    const { url, requests } = await startHttp(server, { legacy: { idleTimeoutMs: 500 } });
    const init = await legacyPost(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: LEGACY_INIT,
    });
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    await init.text();
    const session = { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-11-25' };
    const initialized = await legacyPost(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      session,
    );
    expect(initialized.status).toBe(202);
    expect(observed.changeListeners()).toBe(baseline + 1);

    const client = new AbortController();
    const index = requests.length;
    const call = legacyPost(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } },
      session,
      client.signal,
    );
    await eventually(() => observed.slow.started);
    client.abort();
    await expect(call).rejects.toThrow();
    // The server has seen the disconnect.
    const seen = requests[index]?.signal;
    expect(seen).toBeDefined();
    await eventually(() => seen?.aborted === true);
    expect(observed.slow.signal?.aborted).toBe(false);

    // The session is healthy: other requests on it are answered while the handler runs.
    const ping = await legacyPost(url, { jsonrpc: '2.0', id: 3, method: 'ping' }, session);
    expect((await messagesOf(ping))[0]).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const echo = await legacyPost(
      url,
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'ok' } },
      },
      session,
    );
    expect((await messagesOf(echo))[0]).toMatchObject({
      id: 4,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
    expect(observed.slow.finished).toBe(false);

    // The handler finishes later, never aborted; its result has nowhere to go.
    observed.release.resolve();
    await eventually(() => observed.slow.finished);
    expect(observed.slow.abortedAtEnd).toBe(false);

    // Nothing stays pending: the session goes idle and expires, and its listener goes with it.
    await eventually(() => observed.changeListeners() === baseline, 1000);
    const expired = await legacyPost(url, { jsonrpc: '2.0', id: 5, method: 'ping' }, session);
    expect(expired.status).toBe(404);
    await expired.text();

    // And the server still serves everyone else.
    const modern = await modernPost(url, 6, 'server/discover', modernParams());
    expect((await messagesOf(modern))[0]).toMatchObject({
      id: 6,
      result: { resultType: 'complete' },
    });
  });
});

describe('faults: a handler that never returns, cancelled', () => {
  it('modern over HTTP: closing the stream aborts the handler signal', async () => {
    const { server, observed } = createServer();
    const { url } = await startHttp(server);
    const client = new AbortController();
    const call = modernPost(url, 1, 'tools/call', modernParams({ name: 'hang' }), {
      signal: client.signal,
    });
    await eventually(() => observed.hanging.length === 1);
    client.abort();
    await expect(call).rejects.toThrow();
    await eventually(() => observed.aborted.length === 1);
    expect(observed.aborted).toEqual([1]);
    const after = await modernPost(
      url,
      2,
      'tools/call',
      modernParams({ name: 'echo', arguments: { text: 'next' } }),
    );
    expect((await messagesOf(after))[0]).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'next' }] },
    });
  });

  it('modern on a stdio-like connection: notifications/cancelled aborts it and no response is sent', async () => {
    const { server, observed } = createServer();
    const { peer, errors } = await stdioConnection(server);
    const id = peer.fire('tools/call', modernParams({ name: 'hang' }), 'hang-1');
    await eventually(() => observed.hanging.includes(id));
    await peer.notify('notifications/cancelled', { requestId: id, reason: 'user' });
    await eventually(() => observed.aborted.includes(id));
    // Round trips after the abort: a response for the cancelled id would have come by now.
    for (let i = 0; i < 3; i++) {
      expect(resultOf(await peer.request('server/discover', modernParams())).resultType).toBe(
        'complete',
      );
    }
    expect(peer.answerCounts.has(id)).toBe(false);
    expect(peer.strayResponses).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('legacy over the in-memory pair: notifications/cancelled aborts it and no response is sent', async () => {
    const { server, observed } = createServer();
    const { peer, errors } = await memoryConnection(server);
    expect(resultOf(await peer.request('initialize', LEGACY_INIT)).protocolVersion).toBe(
      '2025-11-25',
    );
    await peer.notify('notifications/initialized');
    const id = peer.fire('tools/call', { name: 'hang' });
    await eventually(() => observed.hanging.includes(id));
    await peer.notify('notifications/cancelled', { requestId: id, reason: 'user' });
    await eventually(() => observed.aborted.includes(id));
    for (let i = 0; i < 3; i++) expect(resultOf(await peer.request('ping'))).toEqual({});
    expect(peer.answerCounts.has(id)).toBe(false);
    expect(peer.strayResponses).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/*
 * Heap bounds. `heapUsed` after a forced full GC still moves by a few MiB for reasons that are
 * not leaks: optimised code and feedback vectors, inline caches, lazily built V8 and undici
 * internals (the HTTP keep-alive pool), vitest's own bookkeeping. So the bound is a generous
 * 20 MiB, and each request carries a large, distinct payload that comes back in the response,
 * so that retaining anything per request (the request, its params, the response, a closure over
 * them) would cost well beyond the bound: 2,000 × 16 KiB in and out on stdio, 500 × 64 KiB on
 * HTTP, i.e. 32+ MiB for either direction alone.
 */
