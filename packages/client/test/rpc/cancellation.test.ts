import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcPair, flush, type RpcPair } from '../support/rpc-peer';
import { SendSpyTransport } from '../support/rpc-transports';

let pair: RpcPair | undefined;
afterEach(async () => {
  await pair?.connection.close();
  await pair?.peer.close();
  pair = undefined;
});

describe('RpcConnection timeouts and cancellation', () => {
  it('times out a request the peer never answers and sends notifications/cancelled', async () => {
    pair = await createRpcPair({ requestTimeoutMs: 20 });
    const call = pair.connection.request('tools/call', { name: 'slow' });
    const request = await pair.peer.nextRequest('tools/call');
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({
      code: LocalErrorCode.RequestTimeout,
      details: { method: 'tools/call', timeoutMs: 20 },
    });
    const cancelled = await pair.peer.nextNotification('notifications/cancelled');
    expect(cancelled.params).toEqual({
      requestId: request.id,
      reason: expect.stringContaining('timed out'),
    });
  });

  it('per-request timeoutMs overrides the default; 0 means none', async () => {
    pair = await createRpcPair({ requestTimeoutMs: 20 });
    const patient = pair.connection.request('patient', undefined, { timeoutMs: 0 });
    const hasty = pair.connection.request('hasty');
    await expect(hasty).rejects.toMatchObject({ code: LocalErrorCode.RequestTimeout });
    const request = await pair.peer.nextRequest('patient');
    await pair.peer.respond(request.id, { waited: true });
    await expect(patient).resolves.toEqual({ waited: true });
  });

  it('abortExchange: aborts the signal given to transport.send and sends no notification', async () => {
    let spy: SendSpyTransport | undefined;
    pair = await createRpcPair(
      { requestTimeoutMs: 20, cancel: { notify: false, abortExchange: true } },
      (inner) => {
        spy = new SendSpyTransport(inner);
        return spy;
      },
    );
    const call = pair.connection.request('tools/call');
    await pair.peer.nextRequest('tools/call');
    const signal = spy?.signalOf(0);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
    await expect(call).rejects.toMatchObject({ code: LocalErrorCode.RequestTimeout });
    expect(signal?.aborted).toBe(true);
    // Nothing but the request itself went out.
    await pair.connection.notify('notifications/marker');
    await pair.peer.nextNotification('notifications/marker');
    expect(pair.peer.received.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'tools/call',
      'notifications/marker',
    ]);
  });

  it('without abortExchange passes no signal to transport.send', async () => {
    let spy: SendSpyTransport | undefined;
    pair = await createRpcPair({}, (inner) => {
      spy = new SendSpyTransport(inner);
      return spy;
    });
    const call = pair.connection.request('ping');
    await pair.peer.respond((await pair.peer.nextRequest()).id, {});
    await call;
    expect(spy?.signalOf(0)).toBeUndefined();
  });

  it('aborting the signal rejects with REQUEST_ABORTED, cause the reason, and cancels', async () => {
    pair = await createRpcPair();
    const controller = new AbortController();
    const call = pair.connection.request('tools/call', undefined, { signal: controller.signal });
    const request = await pair.peer.nextRequest('tools/call');
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: LocalErrorCode.RequestAborted });
    expect((error as LocalError).cause).toBe(reason);
    const cancelled = await pair.peer.nextNotification('notifications/cancelled');
    expect(cancelled.params).toMatchObject({ requestId: request.id });
    expect(typeof cancelled.params?.reason).toBe('string');
  });

  it('an already aborted signal rejects without sending anything', async () => {
    pair = await createRpcPair();
    const reason = new Error('too late');
    const error = await pair.connection
      .request('ping', undefined, { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: LocalErrorCode.RequestAborted, cause: reason });
    await pair.connection.notify('notifications/marker');
    await pair.peer.nextNotification('notifications/marker');
    expect(pair.peer.received).toHaveLength(1);
  });

  it('a response after the abort settles nothing twice', async () => {
    pair = await createRpcPair();
    const controller = new AbortController();
    const call = pair.connection.request('ping', undefined, { signal: controller.signal });
    const request = await pair.peer.nextRequest('ping');
    controller.abort();
    await pair.peer.respond(request.id, {});
    await expect(call).rejects.toMatchObject({ code: LocalErrorCode.RequestAborted });
    await flush();
    expect(pair.errors.items).toEqual([]);
  });
});
