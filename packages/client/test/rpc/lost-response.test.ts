/**
 * Requests whose response is lost fail at once: an oversized message the framing could read an
 * id (or nothing) from, an HTTP response stream that ended without the response. Also the two
 * request options era detection and long calls rely on: `cancelOnWire: false`, and the
 * connection's default `maxTotalTimeoutMs` for calls whose progress resets their timeout.
 */
import {
  createNotification,
  createResultResponse,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientHooks } from '../../src/client-hooks';
import { RpcConnection } from '../../src/rpc/connection';
import type { RpcConnectionOptions } from '../../src/rpc/types';
import { Collector, flush } from '../support/rpc-peer';
import { ManualTransport } from '../support/rpc-transports';

afterEach(() => {
  vi.useRealTimers();
});

async function manual(options: Partial<RpcConnectionOptions> = {}) {
  const transport = new ManualTransport();
  const errors = new Collector<Error>();
  const connection = new RpcConnection(transport, {
    requestTimeoutMs: 60_000,
    cancel: { notify: true, abortExchange: false },
    onError: errors.push,
    ...options,
  });
  await connection.start();
  return { transport, connection, errors };
}

const tooLarge = (details: Record<string, unknown>) =>
  new LocalError(LocalErrorCode.MessageTooLarge, 'Message larger than 4096 bytes skipped', {
    details: { maxMessageBytes: 4096, ...details },
  });

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof LocalError ? error.code : error),
  );
}

/** Whether `promise` is still pending after the queued deliveries ran. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await flush();
  return !settled;
}

describe('RpcConnection and lost responses', () => {
  it('an oversized response with a readable id fails that request; its late answer is dropped', async () => {
    const { transport, connection, errors } = await manual();
    const first = connection.request('a');
    const second = connection.request('b');
    transport.emitError(tooLarge({ kind: 'response', id: 1 }));
    const error = await second.catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: LocalErrorCode.MessageTooLarge,
      details: { method: 'b', id: 1, limit: 4096 },
    });
    expect((error as Error).message).toContain('limit of 4096 bytes');
    expect(await pending(first)).toBe(true);
    transport.onmessage?.(createResultResponse(1, {}));
    // Only the warning about the oversized message itself: the late answer is expected.
    expect(errors.items.map((e) => (e as LocalError).code)).toEqual([
      LocalErrorCode.MessageTooLarge,
    ]);
    transport.onmessage?.(createResultResponse(0, { ok: true }));
    await expect(first).resolves.toEqual({ ok: true });
  });

  it('an oversized request or notification from the server fails nothing', async () => {
    const { transport, connection } = await manual();
    const call = connection.request('a');
    transport.emitError(tooLarge({ kind: 'notification' }));
    transport.emitError(tooLarge({ kind: 'request', id: 0 }));
    expect(await pending(call)).toBe(true);
  });

  it('no readable id: the only pending request fails, but not one of several', async () => {
    const { transport, connection } = await manual();
    const a = connection.request('a');
    const b = connection.request('b');
    transport.emitError(tooLarge({ kind: 'response' }));
    expect(await pending(a)).toBe(true);
    expect(await pending(b)).toBe(true);
    transport.onmessage?.(createResultResponse(0, {}));
    await a;
    transport.emitError(tooLarge({ kind: 'unknown' }));
    expect(await outcome(b)).toBe(LocalErrorCode.MessageTooLarge);
  });

  it('a response stream that drops an oversized event fails its request when it ends', async () => {
    const { transport, connection } = await manual();
    const call = connection.request('tools/call');
    transport.emitError(
      new LocalError(LocalErrorCode.MessageTooLarge, 'SSE event exceeds 4096 bytes; dropped', {
        details: { limit: 4096, requestId: 0 },
      }),
    );
    // It may have been a progress notification: the request waits for its stream to end.
    expect(await pending(call)).toBe(true);
    transport.emitError(
      new LocalError(LocalErrorCode.ConnectionClosed, 'the response stream ended', {
        details: { requestId: 0 },
      }),
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: LocalErrorCode.MessageTooLarge, details: { limit: 4096 } });
  });

  it('a response stream that ends without its response fails the request at once', async () => {
    const { transport, connection } = await manual();
    const call = connection.request('tools/call');
    transport.emitError(
      new LocalError(LocalErrorCode.ConnectionClosed, 'the response stream ended', {
        details: { requestId: 0 },
      }),
    );
    expect(await outcome(call)).toBe(LocalErrorCode.ConnectionClosed);
  });
});

describe('RpcConnection request options', () => {
  it('cancelOnWire: false gives a request up without a word; its late answer is dropped', async () => {
    const { transport, connection, errors } = await manual();
    const stop = new AbortController();
    const call = connection.request('initialize', undefined, {
      signal: stop.signal,
      cancelOnWire: false,
    });
    stop.abort();
    expect(await outcome(call)).toBe(LocalErrorCode.RequestAborted);
    expect(transport.sent.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'initialize',
    ]);
    transport.onmessage?.(createResultResponse(0, {}));
    expect(errors.items).toEqual([]);
  });

  it('the default maxTotalTimeoutMs caps calls whose progress resets the timeout, only them', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, connection } = await manual({ maxTotalTimeoutMs: 1000 });
    const resetting = connection.request('long', undefined, {
      timeoutMs: 300,
      resetTimeoutOnProgress: true,
      onProgress: () => undefined,
    });
    const plain = connection.request('plain', undefined, { timeoutMs: 0 });
    const capped = outcome(resetting);
    for (let step = 1; step <= 5; step++) {
      await vi.advanceTimersByTimeAsync(250);
      transport.onmessage?.(
        createNotification('notifications/progress', { progressToken: 'p0', progress: step }),
      );
    }
    expect(await capped).toBe(LocalErrorCode.RequestTimeout);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await pending(plain)).toBe(true);
    await connection.close();
  });

  it('McpClient caps such calls at 10 minutes unless told otherwise', () => {
    const parts = (maxTotalTimeoutMs?: number) => ({
      options: { clientInfo: { name: 't', version: '1' }, maxTotalTimeoutMs },
      answerer: { capabilities: {} } as never,
      catalog: {} as never,
      cache: undefined,
      onEnd: () => undefined,
    });
    expect(clientHooks(parts()).maxTotalTimeoutMs).toBe(600_000);
    expect(clientHooks(parts(0)).maxTotalTimeoutMs).toBe(0);
  });
});
