import { type JsonRpcNotification, LocalErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../src/types';
import { createRpcPair, flush, type RpcPair } from '../support/rpc-peer';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

let pair: RpcPair | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await pair?.connection.close();
  await pair?.peer.close();
  pair = undefined;
});

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(promise: Promise<T>): { settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe('RpcConnection progress', () => {
  it('puts a fresh token into a copy of the params and routes progress to onProgress', async () => {
    pair = await createRpcPair();
    const { connection, peer, notifications } = pair;
    const params = { name: 'work', _meta: { keep: 1 } };
    const seen: Progress[] = [];
    const call = connection.request('tools/call', params, { onProgress: (p) => seen.push(p) });
    expect(params).toEqual({ name: 'work', _meta: { keep: 1 } });
    const request = await peer.nextRequest('tools/call');
    const token = (request.params?._meta as Record<string, unknown> | undefined)?.progressToken;
    expect(token).toBe(`p${request.id}`);
    expect(request.params).toEqual({ name: 'work', _meta: { keep: 1, progressToken: token } });
    await peer.notify('notifications/progress', { progressToken: token, progress: 1, total: 3 });
    await peer.notify('notifications/progress', { progressToken: 'other', progress: 5 });
    await peer.notify('notifications/progress', {
      progressToken: token,
      progress: 2,
      message: 'halfway',
    });
    await peer.respond(request.id, { done: true });
    await expect(call).resolves.toEqual({ done: true });
    expect(seen).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, message: 'halfway' },
    ]);
    // Progress after completion and for unknown tokens is dropped silently.
    await peer.notify('notifications/progress', { progressToken: token, progress: 3 });
    await flush();
    expect(seen).toHaveLength(2);
    expect(notifications.items).toEqual([]);
    expect(pair.errors.items).toEqual([]);
  });

  it('gives each request its own token', async () => {
    pair = await createRpcPair();
    const a = pair.connection.request('a', undefined, { onProgress: () => {} });
    const b = pair.connection.request('b', {}, { onProgress: () => {} });
    const ra = await pair.peer.nextRequest('a');
    const rb = await pair.peer.nextRequest('b');
    expect(ra.params?._meta).toEqual({ progressToken: 'p0' });
    expect(rb.params?._meta).toEqual({ progressToken: 'p1' });
    await pair.peer.respond(ra.id, {});
    await pair.peer.respond(rb.id, {});
    await Promise.all([a, b]);
  });

  it('resetTimeoutOnProgress keeps a request alive while progress arrives', async () => {
    pair = await createRpcPair();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { connection, peer } = pair;
    const call = track(
      connection.request('long', undefined, {
        timeoutMs: 50,
        resetTimeoutOnProgress: true,
        onProgress: () => {},
      }),
    );
    const request = await peer.nextRequest('long');
    for (let step = 1; step <= 4; step++) {
      await vi.advanceTimersByTimeAsync(40);
      await peer.notify('notifications/progress', { progressToken: 'p0', progress: step });
      await flush();
    }
    expect(call.settled).toBe(false);
    await peer.respond(request.id, { finished: true });
    await expect(call.promise).resolves.toEqual({ finished: true });
  });

  it('without resetTimeoutOnProgress, progress does not extend the timeout', async () => {
    pair = await createRpcPair();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = pair.connection.request('long', undefined, {
      timeoutMs: 50,
      onProgress: () => {},
    });
    const rejected = expect(call).rejects.toMatchObject({ code: LocalErrorCode.RequestTimeout });
    await pair.peer.nextRequest('long');
    await vi.advanceTimersByTimeAsync(40);
    await pair.peer.notify('notifications/progress', { progressToken: 'p0', progress: 1 });
    await flush();
    await vi.advanceTimersByTimeAsync(20);
    await rejected;
  });

  it('maxTotalTimeoutMs is a hard limit even while progress resets the timeout', async () => {
    pair = await createRpcPair();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = track(
      pair.connection.request('long', undefined, {
        timeoutMs: 50,
        resetTimeoutOnProgress: true,
        maxTotalTimeoutMs: 100,
        onProgress: () => {},
      }),
    );
    await pair.peer.nextRequest('long');
    for (let step = 1; step <= 2; step++) {
      await vi.advanceTimersByTimeAsync(40);
      await pair.peer.notify('notifications/progress', { progressToken: 'p0', progress: step });
      await flush();
    }
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(30);
    await expect(call.promise).rejects.toMatchObject({
      code: LocalErrorCode.RequestTimeout,
      details: { timeoutMs: 100 },
    });
  });
});

describe('RpcConnection listen routing', () => {
  it('routes notifications tagged with the request id, and its cancel, to onTagged', async () => {
    pair = await createRpcPair();
    const { connection, peer, notifications } = pair;
    const tagged: JsonRpcNotification[] = [];
    const listen = connection.request(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { timeoutMs: 0, onTagged: (n) => tagged.push(n) },
    );
    const request = await peer.nextRequest('subscriptions/listen');
    await peer.notify('notifications/subscriptions/acknowledged', {
      _meta: { [SUBSCRIPTION_ID]: request.id },
    });
    await peer.notify('notifications/tools/list_changed', {
      _meta: { [SUBSCRIPTION_ID]: request.id },
    });
    await peer.notify('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: 999 } });
    await peer.notify('notifications/message', { level: 'info', data: 'untagged' });
    await peer.notify('notifications/cancelled', {
      requestId: request.id,
      reason: 'shutting down',
    });
    await flush();
    expect(tagged.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/cancelled',
    ]);
    expect(notifications.items.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/message',
    ]);
    await peer.respond(request.id, {});
    await listen;
    // Once the request has settled, its tags are ordinary notifications.
    await peer.notify('notifications/tools/list_changed', {
      _meta: { [SUBSCRIPTION_ID]: request.id },
    });
    await flush();
    expect(tagged).toHaveLength(3);
    expect(notifications.items).toHaveLength(3);
  });

  it('a throwing onTagged is reported on onError', async () => {
    pair = await createRpcPair();
    const listen = pair.connection.request('subscriptions/listen', undefined, {
      onTagged: () => {
        throw new Error('consumer bug');
      },
    });
    const request = await pair.peer.nextRequest();
    await pair.peer.notify('notifications/x', { _meta: { [SUBSCRIPTION_ID]: request.id } });
    expect((await pair.errors.next()).message).toBe('consumer bug');
    await pair.peer.respond(request.id, {});
    await listen;
  });
});
