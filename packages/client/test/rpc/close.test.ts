import { fileURLToPath } from 'node:url';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { StdioClientTransport } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcConnection } from '../../src/rpc/connection';
import { Collector, createRpcPair, flush, type RpcPair } from '../support/rpc-peer';
import { ManualTransport } from '../support/rpc-transports';

const EXIT_AFTER_LINE = fileURLToPath(new URL('../fixtures/exit-after-line.mjs', import.meta.url));

let pair: RpcPair | undefined;
afterEach(async () => {
  await pair?.connection.close();
  await pair?.peer.close();
  pair = undefined;
});

function manualConnection(transport: ManualTransport) {
  const closes = new Collector<Error | undefined>();
  const errors = new Collector<Error>();
  const connection = new RpcConnection(transport, {
    requestTimeoutMs: 5000,
    cancel: { notify: true, abortExchange: false },
    onClose: closes.push,
    onError: errors.push,
  });
  return { connection, closes, errors };
}

describe('RpcConnection close', () => {
  it('rejects pending requests with CONNECTION_CLOSED when the peer closes', async () => {
    pair = await createRpcPair();
    const { connection, peer, closes } = pair;
    const a = connection.request('tools/call');
    const b = connection.requestRaw('resources/read');
    await peer.nextRequest('tools/call');
    await peer.nextRequest('resources/read');
    await peer.close();
    const error = await a.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    expect((error as Error).message).toContain('tools/call');
    await expect(b).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    const reason = await closes.next();
    expect(reason).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    expect(connection.isClosed).toBe(true);
    await connection.close();
    expect(closes.items).toHaveLength(1);
  });

  it('close() is idempotent, rejects pending requests and calls onClose once without an error', async () => {
    pair = await createRpcPair();
    const { connection, peer, closes } = pair;
    const call = connection.request('ping');
    await peer.nextRequest('ping');
    const first = connection.close();
    const second = connection.close();
    expect(second).toBe(first);
    await first;
    await connection.close();
    await expect(call).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    expect(closes.items).toEqual([undefined]);
  });

  it('onClose is called once when the transport does not call onclose', async () => {
    const transport = new ManualTransport();
    transport.close = async () => {
      transport.closeCalls++;
    };
    const { connection, closes } = manualConnection(transport);
    await connection.start();
    await connection.close();
    await connection.close();
    expect(transport.closeCalls).toBe(1);
    expect(closes.items).toEqual([undefined]);
  });

  it('a LocalError PROCESS_EXITED before the close rejects pending requests with that code', async () => {
    const transport = new ManualTransport();
    const { connection, closes, errors } = manualConnection(transport);
    await connection.start();
    const call = connection.request('tools/call');
    await flush();
    const exited = new LocalError(LocalErrorCode.ProcessExited, 'MCP server process exited', {
      details: { exitCode: 3, signal: null, stderrTail: 'boom' },
    });
    transport.emitError(exited);
    transport.emitClose();
    const error = (await call.catch((e: unknown) => e)) as LocalError;
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe(LocalErrorCode.ProcessExited);
    expect(error.message).toContain('tools/call');
    expect(error.cause).toBe(exited);
    expect(error.details).toEqual({ exitCode: 3, signal: null, stderrTail: 'boom' });
    expect(error.details).not.toBe(exited.details);
    expect(await closes.next()).toBe(exited);
    expect(errors.items).toEqual([]);
    // Later requests fail the same way.
    await expect(connection.request('ping')).rejects.toMatchObject({
      code: LocalErrorCode.ProcessExited,
    });
    await connection.close();
    expect(closes.items).toHaveLength(1);
  });

  it('a non-fatal transport error is reported and does not become the close reason', async () => {
    const transport = new ManualTransport();
    const { connection, closes, errors } = manualConnection(transport);
    await connection.start();
    const call = connection.request('ping');
    const garbage = new LocalError(LocalErrorCode.InvalidMessage, 'not JSON');
    transport.emitError(garbage);
    transport.emitClose();
    await expect(call).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    expect(errors.items).toEqual([garbage]);
    expect(await closes.next()).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
  });

  it('a stdio server that dies mid-call rejects the call with PROCESS_EXITED', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [EXIT_AFTER_LINE],
    });
    const closes = new Collector<Error | undefined>();
    const connection = new RpcConnection(transport, {
      requestTimeoutMs: 10_000,
      cancel: { notify: true, abortExchange: false },
      onClose: closes.push,
    });
    try {
      await connection.start();
      const error = (await connection
        .request('tools/call', { name: 'crash' })
        .catch((e: unknown) => e)) as LocalError;
      expect(error).toBeInstanceOf(LocalError);
      expect(error.code).toBe(LocalErrorCode.ProcessExited);
      expect(error.details).toMatchObject({ exitCode: 3 });
      expect(error.message).toContain('tools/call');
      expect(await closes.next()).toMatchObject({ code: LocalErrorCode.ProcessExited });
      expect(connection.isClosed).toBe(true);
      await expect(connection.request('ping')).rejects.toMatchObject({
        code: LocalErrorCode.ProcessExited,
      });
    } finally {
      await connection.close();
    }
    expect(transport.exitInfo?.exitCode).toBe(3);
    expect(closes.items).toHaveLength(1);
  });
});
