/**
 * LineWriter's backpressure: sends waiting on a full stream share one set of listeners, all
 * settle on `drain`, all reject when the stream closes, and an aborted send leaves the others.
 */
import { Writable } from 'node:stream';
import { LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../src/stdio/write-line';

/** A stream with a tiny buffer that holds every chunk until `release()`. */
function heldStream() {
  const held: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 8,
    write(_chunk, _encoding, done) {
      held.push(done);
    },
  });
  const release = () => {
    // Each callback lets the next buffered chunk through; keep going until none is held.
    while (held.length > 0) held.shift()?.();
  };
  return { stream, release, held };
}

const listeners = (stream: Writable) =>
  ['drain', 'close', 'error'].map((event) => stream.listenerCount(event));

describe('LineWriter', () => {
  it('a hundred waiting sends add one listener per event, and all settle on drain', async () => {
    const { stream, release } = heldStream();
    const writer = new LineWriter(stream);
    const sends = Array.from({ length: 100 }, (_, i) => writer.write(`message ${i}\n`));
    expect(listeners(stream)).toEqual([1, 1, 1]);
    const settled = Promise.all(sends);
    for (let i = 0; i < 200; i++) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await settled;
    expect(listeners(stream)).toEqual([0, 0, 0]);
  });

  it('every waiting send rejects with CONNECTION_CLOSED when the stream goes away', async () => {
    const { stream } = heldStream();
    const writer = new LineWriter(stream);
    const sends = Array.from({ length: 5 }, () => writer.write('0123456789\n'));
    stream.destroy();
    for (const send of sends) {
      await expect(send).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    }
    await expect(writer.write('late\n')).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
  });

  it('an aborted send rejects alone; the others still settle on drain', async () => {
    const { stream, release } = heldStream();
    const writer = new LineWriter(stream);
    const controller = new AbortController();
    const first = writer.write('0123456789\n');
    const aborted = writer.write('0123456789\n', controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: LocalErrorCode.RequestAborted });
    for (let i = 0; i < 10; i++) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(first).resolves.toBeUndefined();
  });
});
