/**
 * Misbehaving servers: every fault is reported with a typed error, nothing waits forever, and
 * no process survives the test (the tracker asserts every child and grandchild is gone).
 */
import {
  type JsonRpcMessage,
  type LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioClientTransportOptions } from '../src/node';
import { fixtureServer, isAlive, record, SpawnTracker, waitGone } from './fixtures/stdio/harness';

const tracker = new SpawnTracker();
afterEach(async () => {
  expect(await tracker.cleanup(), 'processes left alive').toEqual([]);
});

const codes = (errors: Error[]) => errors.map((error) => (error as LocalError).code);

/** Starts a fixture server, collecting invalid lines and stderr. */
async function start(
  name: string,
  args: string[] = [],
  options: Partial<StdioClientTransportOptions> = {},
) {
  const invalid: { text: string; error: LocalError }[] = [];
  let stderr = '';
  const stderrWaiters: { marker: string; resolve: () => void }[] = [];
  const transport = tracker.spawn(
    fixtureServer(name, args, {
      onInvalidLine: (text, error) => invalid.push({ text, error }),
      stderr: (chunk) => {
        stderr += chunk;
        for (const waiter of stderrWaiters) if (stderr.includes(waiter.marker)) waiter.resolve();
      },
      ...options,
    }),
  );
  const rec = record(transport);
  await transport.start();
  const stderrSeen = (marker: string) =>
    new Promise<void>((resolve) => {
      if (stderr.includes(marker)) resolve();
      else stderrWaiters.push({ marker, resolve });
    });
  return { transport, rec, invalid, stderrSeen, stderrText: () => stderr };
}

describe('stdio client against misbehaving servers', () => {
  it('reports banners and logs on stdout and still delivers the messages', async () => {
    const { rec, invalid } = await start('echo.mjs', ['--banner']);
    expect(await rec.request(1, 'ping')).toMatchObject({ result: { method: 'ping' } });
    expect(await rec.request(2, 'test/banner')).toMatchObject({ result: { ok: true } });
    expect(invalid.map((line) => line.text)).toEqual([
      'Welcome to echo server v1.0',
      '[info] listening on stdio',
      '[log] handling test/banner',
    ]);
    expect(codes(rec.errors)).toEqual(Array(3).fill(LocalErrorCode.InvalidMessage));
    expect(rec.errors).toEqual(invalid.map((line) => line.error));
  });

  it('reports a JSON array line (a batch) and goes on', async () => {
    const { rec, invalid } = await start('echo.mjs');
    expect(await rec.request(1, 'test/batch')).toMatchObject({ result: { ok: true } });
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.text).toBe('[{"jsonrpc":"2.0","method":"a"}]');
    expect(invalid[0]?.error.message).toMatch(/batch/i);
  });

  it('skips an oversized message, reports it once, and resynchronises', async () => {
    const { rec } = await start('echo.mjs', [], { maxMessageBytes: 4096 });
    const response = await rec.request(1, 'test/oversized', { bytes: 1_000_000 });
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, result: { small: true } });
    expect(codes(rec.errors)).toEqual([LocalErrorCode.MessageTooLarge]);
    expect(await rec.request(2, 'ping')).toMatchObject({ id: 2 });
  });

  it('decodes CJK and emoji that arrive split across pipe reads', async () => {
    const { rec } = await start('echo.mjs');
    const text = '漢字かな交じり文 🎉🧪👩‍💻 ñ 𝄞';
    for (const step of [1, 2, 3, 5]) {
      const response = await rec.request(step, 'test/trickle', { text, step });
      expect(response).toEqual({ jsonrpc: '2.0', id: step, result: { text } });
    }
    expect(rec.errors).toEqual([]);
  });

  it('discards a half-written message when the server exits, and reports the exit', async () => {
    const { transport, rec, invalid } = await start('echo.mjs');
    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'test/exit',
      params: { code: 2, stderr: 'panic: disk on fire\n', partial: '{"jsonrpc":"2.0","id":1,"res' },
    });
    await rec.closed;
    expect(rec.messages).toEqual([]);
    expect(codes(rec.errors)).toEqual([
      LocalErrorCode.InvalidMessage,
      LocalErrorCode.ProcessExited,
    ]);
    expect(invalid[0]?.error.message).toMatch(/stream ended inside a message \(28 bytes/);
    expect(rec.errors[1]).toMatchObject({
      details: { exitCode: 2, signal: null, stderrTail: 'panic: disk on fire\n' },
    });
    expect(rec.closes).toBe(1);
  });

  it('keeps only the last 64 KiB of a stderr flood, streams all of it, and keeps working', async () => {
    const { rec, transport, stderrSeen, stderrText } = await start('echo.mjs');
    const bytes = 1024 * 1024;
    await rec.request(1, 'test/stderr', { bytes, marker: 'END-OF-FLOOD' });
    await stderrSeen('END-OF-FLOOD');
    expect(stderrText().length).toBe(bytes + 'END-OF-FLOOD'.length);
    const tail = transport.stderrTail();
    expect(Buffer.byteLength(tail)).toBe(64 * 1024);
    expect(tail.endsWith('eeee\nEND-OF-FLOOD')).toBe(true);
    expect(await rec.request(2, 'ping')).toMatchObject({ id: 2 });
  });

  it('bounds the stderr tail by stderrTailBytes', async () => {
    const { rec, transport, stderrSeen } = await start('echo.mjs', [], { stderrTailBytes: 100 });
    await rec.request(1, 'test/stderr', { bytes: 10_000, marker: 'MARK' });
    await stderrSeen('MARK');
    expect(transport.stderrTail()).toBe(`${'e'.repeat(96)}MARK`);
  });

  describe('a server that never reads stdin', () => {
    const closeTimeouts = { stdinEndMs: 100, sigtermMs: 100 };

    async function blockedSend(args: string[]) {
      const server = await start('deaf.mjs', args, { closeTimeouts });
      await server.stderrSeen('ready');
      let settled = false;
      const big = 'z'.repeat(1024 * 1024);
      const sending = server.transport
        .send({ jsonrpc: '2.0', method: 'notifications/big', params: { big } })
        .then(
          () => 'resolved',
          (error: unknown) => error,
        )
        .finally(() => {
          settled = true;
        });
      // A send that is not blocked settles within a microtask; give it two loop turns.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(settled, 'send waits for drain').toBe(false);
      return { ...server, sending };
    }

    it('blocks sending on backpressure; close escalates to SIGTERM', async () => {
      const { transport, rec, sending } = await blockedSend([]);
      await transport.close();
      expect(await sending).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
      expect(transport.exitInfo).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
      expect(rec.errors).toEqual([]);
      expect(rec.closes).toBe(1);
    });

    it('escalates to SIGKILL when SIGTERM is ignored', async () => {
      const { transport, sending } = await blockedSend(['--ignore-sigterm']);
      await transport.close();
      expect(await sending).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
      expect(transport.exitInfo).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    });
  });

  describe('a server that leaves a grandchild ignoring SIGTERM', () => {
    for (const args of [[], ['--share-stdout']]) {
      it(`kills the grandchild on close ${args.join(' ')}`, async () => {
        const { transport, rec } = await start('grandchild.mjs', args);
        const announced = await rec.next((m) => 'method' in m && m.method === 'test/grandchild');
        const grandchild = (announced as JsonRpcMessage & { params: { pid: number } }).params.pid;
        tracker.pids.add(grandchild);
        expect(await rec.request(1, 'ping')).toMatchObject({ result: { pong: true } });
        const child = transport.pid as number;
        await transport.close();
        expect(await waitGone(child)).toBe(true);
        expect(await waitGone(grandchild)).toBe(true);
      });
    }

    it('closes anyway when a process outside the group holds the pipes', async () => {
      const { transport, rec } = await start('grandchild.mjs', ['--escape-group'], {
        closeTimeouts: { outputDrainMs: 50 },
      });
      const announced = await rec.next((m) => 'method' in m && m.method === 'test/grandchild');
      const escaped = (announced as JsonRpcMessage & { params: { pid: number } }).params.pid;
      try {
        await transport.close();
        expect(rec.closes).toBe(1);
        expect(transport.exitInfo).toMatchObject({ exitCode: 0, signal: null });
        // Out of the group, out of reach: the limit of group signals, stated here.
        expect(isAlive(escaped)).toBe(true);
      } finally {
        process.kill(escaped, 'SIGKILL');
        expect(await waitGone(escaped)).toBe(true);
      }
    });
  });
});
