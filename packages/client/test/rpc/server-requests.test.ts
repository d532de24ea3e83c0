import { ErrorCode, ProtocolError } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRequestHandler } from '../../src/rpc/types';
import { createRpcPair, flush, type RpcPair } from '../support/rpc-peer';

let pair: RpcPair | undefined;
afterEach(async () => {
  await pair?.connection.close();
  await pair?.peer.close();
  pair = undefined;
});

describe('RpcConnection server requests', () => {
  it('answers with the handler result', async () => {
    const calls: unknown[] = [];
    pair = await createRpcPair({
      onRequest: async (method, params, context) => {
        calls.push({ method, params, id: context.id });
        return { roots: [] };
      },
    });
    const id = await pair.peer.request('roots/list', { a: 1 });
    expect(await pair.peer.nextResponse(id)).toEqual({ jsonrpc: '2.0', id, result: { roots: [] } });
    expect(calls).toEqual([{ method: 'roots/list', params: { a: 1 }, id }]);
  });

  it('answers a ProtocolError with its error object', async () => {
    pair = await createRpcPair({
      onRequest: async () => {
        throw new ProtocolError(ErrorCode.InvalidParams, 'bad params', { field: 'x' });
      },
    });
    const id = await pair.peer.request('sampling/createMessage');
    expect(await pair.peer.nextResponse(id)).toEqual({
      jsonrpc: '2.0',
      id,
      error: { code: -32602, message: 'bad params', data: { field: 'x' } },
    });
  });

  it('answers any other error with -32603 and its message', async () => {
    pair = await createRpcPair({
      onRequest: async () => {
        throw new Error('handler broke');
      },
    });
    const id = await pair.peer.request('elicitation/create');
    expect(await pair.peer.nextResponse(id)).toEqual({
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InternalError, message: 'handler broke' },
    });
  });

  it('answers -32601 without a handler, and setHandlers can add one', async () => {
    pair = await createRpcPair();
    const first = await pair.peer.request('ping');
    expect(await pair.peer.nextResponse(first)).toMatchObject({
      error: { code: ErrorCode.MethodNotFound },
    });
    pair.connection.setHandlers({ onRequest: async () => ({}) });
    const second = await pair.peer.request('ping');
    expect(await pair.peer.nextResponse(second)).toEqual({
      jsonrpc: '2.0',
      id: second,
      result: {},
    });
    pair.connection.setHandlers({ onRequest: undefined });
    const third = await pair.peer.request('ping');
    expect(await pair.peer.nextResponse(third)).toMatchObject({
      error: { code: ErrorCode.MethodNotFound },
    });
  });

  it('a server notifications/cancelled aborts the handler signal and no answer is sent', async () => {
    let handlerSignal: AbortSignal | undefined;
    let finishHandler: (() => void) | undefined;
    const handlerDone = new Promise<void>((resolve) => {
      finishHandler = resolve;
    });
    const handler: ServerRequestHandler = (_method, _params, { signal }) => {
      handlerSignal = signal;
      return new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          resolve({ tooLate: true });
          finishHandler?.();
        });
      });
    };
    pair = await createRpcPair({ onRequest: handler });
    const id = await pair.peer.request('elicitation/create');
    await pair.peer.notify('notifications/cancelled', { requestId: id, reason: 'user left' });
    await handlerDone;
    expect(handlerSignal?.aborted).toBe(true);
    await flush();
    // The next thing the peer receives is our marker, not an answer to the cancelled request.
    await pair.connection.notify('notifications/marker');
    await pair.peer.nextNotification('notifications/marker');
    expect(pair.peer.received.map((m) => ('method' in m ? m.method : `answer ${m.id}`))).toEqual([
      'notifications/marker',
    ]);
    // The cancel was consumed, not passed on.
    expect(pair.notifications.items).toEqual([]);
  });

  it('closing the connection aborts running handlers', async () => {
    let handlerSignal: AbortSignal | undefined;
    let started: (() => void) | undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    pair = await createRpcPair({
      onRequest: (_method, _params, { signal }) => {
        handlerSignal = signal;
        started?.();
        return new Promise(() => {});
      },
    });
    await pair.peer.request('sampling/createMessage');
    await running;
    await pair.connection.close();
    expect(handlerSignal?.aborted).toBe(true);
  });
});
