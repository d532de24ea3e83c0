import {
  ErrorCode,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcConnection } from '../../src/rpc/connection';
import { createRpcPair, flush, type RpcPair } from '../support/rpc-peer';
import { ManualTransport } from '../support/rpc-transports';

let pair: RpcPair | undefined;
afterEach(async () => {
  await pair?.connection.close();
  await pair?.peer.close();
  pair = undefined;
});

describe('RpcConnection requests', () => {
  it('sends requests with integer ids from 0 and resolves with the result', async () => {
    pair = await createRpcPair();
    const { connection, peer } = pair;
    const first = connection.request('tools/list', { cursor: 'a' });
    const second = connection.request('ping');
    const r1 = await peer.nextRequest('tools/list');
    const r2 = await peer.nextRequest('ping');
    expect(r1).toEqual({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: { cursor: 'a' } });
    expect(r2).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await peer.respond(1, {});
    await peer.respond(0, { tools: [] });
    await expect(first).resolves.toEqual({ tools: [] });
    await expect(second).resolves.toEqual({});
  });

  it('calls onSent with the id before sending', async () => {
    pair = await createRpcPair();
    const ids: unknown[] = [];
    const call = pair.connection.request('ping', undefined, { onSent: (id) => ids.push(id) });
    expect(ids).toEqual([0]);
    await pair.peer.respond((await pair.peer.nextRequest()).id, {});
    await call;
  });

  it('rejects an error response with a ProtocolError', async () => {
    pair = await createRpcPair();
    const call = pair.connection.request('tools/call', { name: 'x' });
    const request = await pair.peer.nextRequest();
    await pair.peer.respondError(request.id, {
      code: ErrorCode.InvalidParams,
      message: 'no such tool',
      data: { name: 'x' },
    });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: 'no such tool', data: { name: 'x' } });
  });

  it('rejects -32022 with UnsupportedProtocolVersionError', async () => {
    pair = await createRpcPair();
    const call = pair.connection.request('server/discover');
    const request = await pair.peer.nextRequest();
    await pair.peer.respondError(request.id, {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'unsupported',
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as UnsupportedProtocolVersionError).supported).toEqual(['2026-07-28']);
  });

  it('requestRaw resolves error responses as outcomes', async () => {
    pair = await createRpcPair();
    const errorCall = pair.connection.requestRaw('server/discover');
    const resultCall = pair.connection.requestRaw('ping');
    await pair.peer.respondError((await pair.peer.nextRequest('server/discover')).id, {
      code: ErrorCode.MethodNotFound,
      message: 'Method not found',
    });
    await pair.peer.respond((await pair.peer.nextRequest('ping')).id, { ok: true });
    await expect(errorCall).resolves.toEqual({
      type: 'error',
      error: { code: -32601, message: 'Method not found' },
      context: undefined,
    });
    await expect(resultCall).resolves.toEqual({
      type: 'result',
      result: { ok: true },
      context: undefined,
    });
  });

  it('sends notifications', async () => {
    pair = await createRpcPair();
    await pair.connection.notify('notifications/initialized');
    expect(await pair.peer.nextNotification()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
  });

  it('reports an unknown id and a duplicate answer, and still settles the real request', async () => {
    pair = await createRpcPair();
    const { connection, peer, errors } = pair;
    const call = connection.request('ping');
    const request = await peer.nextRequest();
    await peer.respond(77, { wrong: true });
    const unknown = await errors.next();
    expect(unknown).toBeInstanceOf(LocalError);
    expect((unknown as LocalError).code).toBe(LocalErrorCode.InvalidMessage);
    await peer.respond(request.id, { right: true });
    await peer.respond(request.id, { again: true });
    await expect(call).resolves.toEqual({ right: true });
    const duplicate = await errors.next();
    expect((duplicate as LocalError).code).toBe(LocalErrorCode.InvalidMessage);
    expect(errors.items).toHaveLength(2);
  });

  it('reports an error response without an id', async () => {
    pair = await createRpcPair();
    await pair.peer.send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    const error = (await pair.errors.next()) as LocalError;
    expect(error.code).toBe(LocalErrorCode.InvalidMessage);
    expect(error.cause).toBeInstanceOf(ProtocolError);
  });

  it('ignores the late answer of a timed-out request quietly, but not a second one', async () => {
    pair = await createRpcPair();
    const { connection, peer, errors } = pair;
    const call = connection.request('slow', undefined, { timeoutMs: 20 });
    const request = await peer.nextRequest('slow');
    await expect(call).rejects.toMatchObject({ code: LocalErrorCode.RequestTimeout });
    await peer.respond(request.id, { late: true });
    await peer.respond(request.id, { late: 'again' });
    const error = (await errors.next()) as LocalError;
    expect(error.code).toBe(LocalErrorCode.InvalidMessage);
    expect(errors.items).toHaveLength(1);
  });

  it('onAnswer runs at delivery, before a response read after it settles anything', async () => {
    const transport = new ManualTransport();
    const connection = new RpcConnection(transport, {
      requestTimeoutMs: 5000,
      cancel: { notify: true, abortExchange: false },
    });
    await connection.start();
    const seen: string[] = [];
    const probe = connection.requestRaw('server/discover', undefined, {
      onAnswer: (outcome) => seen.push(`answer ${outcome.type}`),
    });
    const later = connection.request('ping').then(() => [...seen]);
    await flush();
    // Both answers in one read, the probe's first: the ping's continuation already sees it.
    transport.onmessage?.({ jsonrpc: '2.0', id: 0, result: { supportedVersions: [] } });
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, result: {} });
    expect(seen).toEqual(['answer result']);
    await expect(later).resolves.toEqual(['answer result']);
    await expect(probe).resolves.toMatchObject({ type: 'result' });
    await connection.close();
  });

  it('rejects a request whose send() fails with that error', async () => {
    const failure = new LocalError(LocalErrorCode.HttpError, 'HTTP 500', {
      details: { status: 500 },
    });
    const transport = new ManualTransport(async (message) => {
      if ('method' in message && message.method === 'bad') throw failure;
    });
    const connection = new RpcConnection(transport, {
      requestTimeoutMs: 5000,
      cancel: { notify: true, abortExchange: false },
    });
    await connection.start();
    await expect(connection.request('bad')).rejects.toBe(failure);
    // The connection stays usable.
    const good = connection.request('good');
    await flush();
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, result: { fine: true } });
    await expect(good).resolves.toEqual({ fine: true });
    await connection.close();
  });

  it('a send refused because the transport closed settles with the close reason', async () => {
    const transport = new ManualTransport(async () => {
      throw new LocalError(LocalErrorCode.ConnectionClosed, 'stdin is gone');
    });
    const connection = new RpcConnection(transport, {
      requestTimeoutMs: 5000,
      cancel: { notify: true, abortExchange: false },
    });
    await connection.start();
    const request = connection.request('initialize');
    await flush();
    transport.onerror?.(
      new LocalError(LocalErrorCode.ProcessExited, 'exited with code 1', {
        details: { exitCode: 1 },
      }),
    );
    transport.onclose?.();
    await expect(request).rejects.toMatchObject({
      code: LocalErrorCode.ProcessExited,
      details: { exitCode: 1 },
    });
  });

  it('rejects requests and notifications after close()', async () => {
    pair = await createRpcPair();
    await pair.connection.close();
    expect(pair.connection.isClosed).toBe(true);
    await expect(pair.connection.request('ping')).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
    await expect(pair.connection.notify('notifications/x')).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
  });
});
