import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { type JsonRpcMessage, LocalErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioServerTransport } from '../src/node';
import { record, SpawnTracker, spawnRelayPair } from './fixtures/stdio/harness';

const ping = (id: number | string): JsonRpcMessage => ({ jsonrpc: '2.0', id, method: 'ping' });
const line = (message: JsonRpcMessage) => `${JSON.stringify(message)}\n`;

/** A server transport on two in-memory streams, plus a reader of everything it wrote. */
function serveOnStreams(options: { flushTimeoutMs?: number; output?: Writable } = {}) {
  const input = new PassThrough();
  const output = options.output ?? new PassThrough();
  const invalid: string[] = [];
  const transport = new StdioServerTransport({
    input,
    output,
    onInvalidLine: (text) => invalid.push(text),
    flushTimeoutMs: options.flushTimeoutMs,
  });
  let written = '';
  // A given output is left unread, so tests can fill it; the default one is drained here.
  if (!options.output) output.on('data', (chunk: Buffer) => (written += chunk));
  return { input, output, transport, invalid, written: () => written, rec: record(transport) };
}

describe('StdioServerTransport', () => {
  it('reads framed messages from its input and writes one line per message', async () => {
    const { input, output, transport, rec, written } = serveOnStreams();
    await transport.start();
    input.write(`${line(ping(1)).slice(0, 10)}`);
    input.write(`${line(ping(1)).slice(10)}${line(ping('b'))}`);
    await rec.next((m) => 'id' in m && m.id === 'b');
    expect(rec.messages).toEqual([ping(1), ping('b')]);
    await transport.send({ jsonrpc: '2.0', id: 1, result: { text: 'multi\nline' } });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress' });
    await transport.close();
    if (!(output as PassThrough).readableEnded) await once(output, 'end');
    expect(written()).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"text":"multi\\nline"}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/progress"}\n',
    );
  });

  it('reports lines that are not JSON-RPC without closing', async () => {
    const { input, transport, rec, invalid } = serveOnStreams();
    await transport.start();
    input.write(`hello\n[1,2]\n${line(ping(3))}`);
    await rec.next((m) => 'id' in m && m.id === 3);
    expect(invalid).toEqual(['hello', '[1,2]']);
    expect(rec.errors.map((e) => (e as { code?: string }).code)).toEqual([
      LocalErrorCode.InvalidMessage,
      LocalErrorCode.InvalidMessage,
    ]);
    expect(rec.closes).toBe(0);
  });

  it('reports a throwing onmessage handler and still delivers the rest of the chunk', async () => {
    const { input, transport, rec } = serveOnStreams();
    const seen: JsonRpcMessage[] = [];
    transport.onmessage = (message) => {
      seen.push(message);
      if (seen.length === 1) throw new Error('handler bug');
    };
    await transport.start();
    input.write(line(ping(1)) + line(ping(2)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([ping(1), ping(2)]);
    expect(rec.errors.map((e) => e.message)).toEqual(['handler bug']);
    await transport.close();
  });

  it('rejects send before start and a second start', async () => {
    const { transport } = serveOnStreams();
    await expect(transport.send(ping(1))).rejects.toMatchObject({
      code: LocalErrorCode.NotConnected,
    });
    await transport.start();
    await expect(transport.start()).rejects.toThrow(/only once/);
    await transport.close();
  });

  it('closes when its input ends, after delivering a last line without newline', async () => {
    const { input, output, transport, rec } = serveOnStreams();
    await transport.start();
    // A notification awaits no answer, so nothing holds the close (stdio-server-flow tests that).
    const initialized: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
    input.end(JSON.stringify(initialized));
    await rec.closed;
    expect(rec.messages).toEqual([initialized]);
    expect(rec.closes).toBe(1);
    expect(output.writableEnded).toBe(true);
    await expect(transport.send(ping(1))).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
    await transport.close();
    expect(rec.closes).toBe(1);
  });

  it('delivers nothing after close and stops reading its input', async () => {
    const { input, transport, rec } = serveOnStreams();
    await transport.start();
    await transport.close();
    input.write(line(ping(1)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(rec.messages).toEqual([]);
    expect(input.listenerCount('data')).toBe(0);
    expect(input.isPaused()).toBe(true);
  });

  it('waits for drain when the output is full, then resolves', async () => {
    const output = new PassThrough({ highWaterMark: 64 });
    const { transport } = serveOnStreams({ output });
    await transport.start();
    let sent = false;
    const sending = transport
      .send({ jsonrpc: '2.0', method: 'n', params: { pad: 'x'.repeat(1000) } })
      .then(() => {
        sent = true;
      });
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(false);
    output.resume();
    await sending;
    expect(sent).toBe(true);
    await transport.close();
  });

  it('does not let a peer that stopped reading hold close() forever', async () => {
    const output = new PassThrough({ highWaterMark: 64 });
    const { transport, rec } = serveOnStreams({ output, flushTimeoutMs: 20 });
    await transport.start();
    const sending = transport
      .send({ jsonrpc: '2.0', method: 'n', params: { pad: 'x'.repeat(1000) } })
      .catch((error: unknown) => error);
    await transport.close();
    expect(await sending).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    expect(output.destroyed).toBe(true);
    expect(rec.closes).toBe(1);
  });

  it('reports an output failure (the peer went away) and closes', async () => {
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const { transport, rec } = serveOnStreams({ output });
    await transport.start();
    await transport.send(ping(1)).catch(() => {});
    await rec.closed;
    expect(rec.errors.map((e) => e.message)).toContain('write EPIPE');
    expect(rec.closes).toBe(1);
  });
});

describe('stdio client and server across a real process', () => {
  const tracker = new SpawnTracker();
  afterEach(async () => {
    expect(await tracker.cleanup(), 'processes left alive').toEqual([]);
  });

  it('carries messages both ways and closes from the client side', async () => {
    const { client, server } = await spawnRelayPair(tracker);
    const clientRec = record(client);
    const serverRec = record(server);
    await server.start();
    await client.send(ping(1));
    expect(await serverRec.next(() => true)).toEqual(ping(1));
    await server.send({ jsonrpc: '2.0', id: 1, result: { ok: '✓ 日本 🎉' } });
    expect(await clientRec.next(() => true)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { ok: '✓ 日本 🎉' },
    });
    await client.close();
    await serverRec.closed;
    expect([clientRec.closes, serverRec.closes]).toEqual([1, 1]);
    expect(clientRec.errors).toEqual([]);
  });

  it('closes the client when the server side ends the conversation', async () => {
    const { client, server } = await spawnRelayPair(tracker);
    const clientRec = record(client);
    await server.start();
    await server.close();
    await clientRec.closed;
    expect(clientRec.closes).toBe(1);
    expect(client.exitInfo).toMatchObject({ exitCode: 0 });
  });
});
