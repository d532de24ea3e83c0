// Flow control of the stdio server transport: it stops reading while its output is full
// (backpressure), and at the end of its input it answers what is in flight before closing.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { type JsonRpcMessage, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INPUT_END_GRACE_MS,
  DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from '../src/node';
import { PendingAnswers } from '../src/stdio/pending-answers';
import { record } from './fixtures/stdio/harness';

const request = (id: number, method = 'tools/call'): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method,
});
const answer = (id: number, pad = ''): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  result: pad === '' ? {} : { pad },
});
const cancel = (id: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId: id },
});
const line = (message: JsonRpcMessage) => `${JSON.stringify(message)}\n`;

/**
 * A server transport on two streams; the output is read only once `drain()` is called. Until
 * then it behaves as a pipe nobody reads: bytes written to it stay unwritten (counted in its
 * `writableLength`), as they do once a real pipe's buffer is full.
 */
function serve(options: Omit<StdioServerTransportOptions, 'input' | 'output'> = {}) {
  const input = new PassThrough();
  const output = new PassThrough({ readableHighWaterMark: 0 });
  const transport = new StdioServerTransport({ input, output, ...options });
  let written = '';
  const drain = () => output.on('data', (chunk: Buffer) => (written += chunk));
  return { input, output, transport, rec: record(transport), drain, written: () => written };
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as JsonRpcMessage);

describe('StdioServerTransport sends', () => {
  it('writes a tick’s first message at once, the rest in writes of 2, 4, ... and the remainder at its end, in order', async () => {
    const { transport, drain, written, output } = serve();
    await transport.start();
    drain();
    const chunks: string[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const sent = ids.map((id) => transport.send(answer(id)));
    const text = (group: number[]) => group.map((id) => line(answer(id))).join('');
    // Within the tick: the first at once, then two and four together as they fill up.
    expect(chunks).toEqual([text([1]), text([2, 3]), text([4, 5, 6, 7])]);
    await Promise.all(sent);
    await new Promise((resolve) => setImmediate(resolve));
    // The rest at the end of the tick; the next tick starts with one again.
    expect(chunks.slice(3)).toEqual([text([8, 9])]);
    const next = [10, 11].map((id) => transport.send(answer(id)));
    expect(chunks.slice(4)).toEqual([text([10])]);
    await Promise.all(next);
    const last = transport.send(answer(12));
    await transport.close();
    await last;
    expect(lines(written())).toEqual([...ids, 10, 11, 12].map((id) => answer(id)));
  });

  it('rejects a send whose signal fires while the output is full; the others still go out', async () => {
    const { transport, drain, written } = serve();
    await transport.start();
    const before = new AbortController();
    before.abort();
    await expect(transport.send(answer(0), { signal: before.signal })).rejects.toMatchObject({
      code: LocalErrorCode.RequestAborted,
    });
    // Over the stream's own buffer, so the tick's write waits for drain.
    const big = 'x'.repeat(64 * 1024);
    const controller = new AbortController();
    const kept = transport.send(answer(1, big));
    const dropped = transport.send(answer(2), { signal: controller.signal });
    controller.abort();
    await expect(dropped).rejects.toMatchObject({ code: LocalErrorCode.RequestAborted });
    drain();
    await kept;
    // Already queued when its signal fired, so it still went out (a stream takes no write back).
    expect(lines(written())).toEqual([answer(1, big), answer(2)]);
    await transport.close();
  });
});

describe('StdioServerTransport backpressure', () => {
  it('has an explicit default high-water mark and grace period', () => {
    expect(DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES).toBe(1024 * 1024);
    expect(DEFAULT_INPUT_END_GRACE_MS).toBe(10_000);
    expect(() => new StdioServerTransport({ outputHighWaterMarkBytes: -1 })).toThrow(RangeError);
    expect(() => new StdioServerTransport({ inputEndGraceMs: Number.NaN })).toThrow(RangeError);
  });

  it('stops reading while the unread output is over the mark, and reads on once it is written', async () => {
    const { input, transport, rec, drain, written } = serve({ outputHighWaterMarkBytes: 1024 });
    await transport.start();
    input.write(line(request(1)));
    await rec.next((m) => 'id' in m && m.id === 1);
    expect(input.isPaused()).toBe(false);

    const sent = transport.send(answer(1, 'x'.repeat(4096)));
    expect(input.isPaused(), 'input held as soon as the output is over the mark').toBe(true);
    // A request arriving meanwhile stays in the input: nothing more is read.
    input.write(line(request(2)));
    expect(rec.messages).toHaveLength(1);

    const resumed = once(input, 'resume');
    drain();
    await sent;
    await resumed;
    await rec.next((m) => 'id' in m && m.id === 2);
    expect(lines(written())).toEqual([answer(1, 'x'.repeat(4096))]);
    await transport.close();
  });

  it('counts every answer not yet written, and does not hold for output under the mark', async () => {
    const { input, transport, drain } = serve({ outputHighWaterMarkBytes: 2000 });
    await transport.start();
    void transport.send(answer(1, 'x'.repeat(900)));
    expect(input.isPaused()).toBe(false);
    void transport.send(answer(2, 'x'.repeat(900)));
    void transport.send(answer(3, 'x'.repeat(900)));
    expect(input.isPaused()).toBe(true);
    const resumed = once(input, 'resume');
    drain();
    await resumed;
    await transport.close();
  });

  it('holds on while answers queued after the mark keep the output full', async () => {
    const { input, output, transport } = serve({ outputHighWaterMarkBytes: 100 });
    await transport.start();
    void transport.send(answer(1, 'x'.repeat(200)));
    expect(input.isPaused()).toBe(true);
    void transport.send(answer(2, 'x'.repeat(200_000)));
    // Nobody reads the output yet: both answers wait unwritten and the input stays held.
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.readableLength).toBeGreaterThan(200);
    expect(input.isPaused()).toBe(true);
    const resumed = once(input, 'resume');
    output.resume();
    await resumed;
    await transport.close();
  });
});

describe('StdioServerTransport at the end of its input', () => {
  it('answers a last request that has no newline, then closes', async () => {
    const { input, output, transport, rec, drain, written } = serve();
    drain();
    await transport.start();
    input.end(JSON.stringify(request(9)));
    await rec.next((m) => 'id' in m && m.id === 9);
    if (!input.readableEnded) await once(input, 'end');
    expect(rec.closes, 'still open: request 9 awaits its answer').toBe(0);
    await transport.send(answer(9));
    await rec.closed;
    if (!output.readableEnded) await once(output, 'end');
    expect(lines(written())).toEqual([answer(9)]);
  });

  it('answers requests in flight when the input ends, in any order, then closes', async () => {
    const { input, output, transport, rec, drain, written } = serve();
    drain();
    await transport.start();
    input.write(line(request(1)) + line(request(2)));
    await rec.next((m) => 'id' in m && m.id === 2);
    input.end();
    if (!input.readableEnded) await once(input, 'end');
    await transport.send(answer(2));
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress' });
    expect(rec.closes).toBe(0);
    await transport.send(answer(1));
    await rec.closed;
    if (!output.readableEnded) await once(output, 'end');
    expect(lines(written()).map((m) => ('id' in m ? m.id : 'note'))).toEqual([2, 'note', 1]);
  });

  it('runs oninputend once, while it can still send', async () => {
    const { input, transport, rec, drain, written } = serve();
    drain();
    const calls: number[] = [];
    transport.oninputend = () => {
      calls.push(rec.closes);
      void transport.send(answer(1));
    };
    await transport.start();
    input.end(line(request(1)));
    await rec.closed;
    expect(calls).toEqual([0]);
    expect(lines(written())).toEqual([answer(1)]);
  });

  it('needs no answer for a request the peer cancelled', async () => {
    const { input, transport, rec, drain } = serve();
    drain();
    await transport.start();
    input.end(line(request(1)) + line(cancel(1)));
    await rec.closed;
    expect(rec.messages).toEqual([request(1), cancel(1)]);
  });

  it('closes after the grace period when an answer never comes', async () => {
    const { input, transport, rec, drain } = serve({ inputEndGraceMs: 10 });
    drain();
    await transport.start();
    input.end(line(request(1)));
    await rec.closed;
    expect(rec.closes).toBe(1);
  });

  it('does not wait for answers once its output is gone', async () => {
    const { input, output, transport, rec } = serve();
    await transport.start();
    input.end(line(request(1)));
    if (!input.readableEnded) await once(input, 'end');
    output.destroy();
    await rec.closed;
    expect(rec.closes).toBe(1);
  });

  it('closes at once on close(), whatever is in flight', async () => {
    const { input, transport, rec, drain } = serve();
    drain();
    await transport.start();
    input.write(line(request(1)));
    await rec.next(() => true);
    await transport.close();
    expect(rec.closes).toBe(1);
  });
});

describe('PendingAnswers', () => {
  it('tracks delivered requests until answered or cancelled, counting a reused id', () => {
    const pending = new PendingAnswers();
    let idle = 0;
    pending.delivered(request(1));
    pending.delivered(request(1));
    pending.delivered({ jsonrpc: '2.0', id: 'a', method: 'ping' });
    pending.delivered({ jsonrpc: '2.0', method: 'notifications/initialized' });
    pending.delivered(answer(5));
    expect(pending.size).toBe(2);
    pending.whenIdle(() => idle++);
    pending.sent(answer(1));
    pending.sent({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } });
    pending.sent({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage' });
    expect(pending.size).toBe(2);
    pending.sent({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'no' } });
    expect([pending.size, idle]).toEqual([1, 0]);
    pending.delivered(cancel(1));
    expect([pending.size, idle]).toEqual([0, 1]);
    pending.whenIdle(() => idle++);
    expect(idle).toBe(2);
  });
});
