// serveStdio when the client closes stdin but still reads stdout: what is in flight is answered
// (in both eras), open listens end with their final result, then the connection closes.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { JsonRpcMessage, JsonRpcResponse } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../src/node';
import { McpServer } from '../src/server';
import { deferred } from './support/faults-harness';
import { modernParams } from './support/peer';

async function serveOnStreams(options: { inputEndGraceMs?: number } = {}) {
  const started = deferred<void>();
  const release = deferred<void>();
  const server = new McpServer({ name: 'eof', version: '1.0.0' });
  server.registerTool({
    name: 'slow',
    handler: async () => {
      started.resolve();
      await release.promise;
      return 'late';
    },
  });
  server.registerTool({ name: 'quick', handler: () => 'quick' });
  const input = new PassThrough();
  const output = new PassThrough();
  const received: JsonRpcMessage[] = [];
  const watchers = new Set<() => void>();
  let buffered = '';
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    const parts = (buffered + text).split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) received.push(JSON.parse(part) as JsonRpcMessage);
    for (const watch of watchers) watch();
  });
  const answerTo = (id: string | number) =>
    new Promise<JsonRpcResponse>((resolve) => {
      const watch = () => {
        const found = received.find((m) => 'id' in m && m.id === id && !('method' in m));
        if (found === undefined) return;
        watchers.delete(watch);
        resolve(found as JsonRpcResponse);
      };
      watchers.add(watch);
      watch();
    });
  const connection = await serveStdio(server, { input, output, ...options });
  const send = (message: JsonRpcMessage) => input.write(`${JSON.stringify(message)}\n`);
  return { input, output, connection, send, answerTo, started, release, received };
}

describe('serveStdio at end of input', () => {
  it('answers a modern call still running, then closes and ends its output', async () => {
    const s = await serveOnStreams();
    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modernParams({ name: 'slow' }) });
    await s.started.promise;
    s.input.end();
    if (!s.input.readableEnded) await once(s.input, 'end');
    s.release.resolve();
    expect(await s.answerTo(1)).toMatchObject({
      result: { content: [{ type: 'text', text: 'late' }] },
    });
    await s.connection.closed;
    if (!s.output.readableEnded) await once(s.output, 'end');
  });

  it('answers a legacy call still running', async () => {
    const s = await serveOnStreams();
    s.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    await s.answerTo('init');
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } });
    await s.started.promise;
    // The last request has no newline: it is read at end of input, and answered too.
    s.input.end(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'quick' } }),
    );
    expect(await s.answerTo(3)).toMatchObject({ result: { content: [{ text: 'quick' }] } });
    s.release.resolve();
    expect(await s.answerTo(2)).toMatchObject({ result: { content: [{ text: 'late' }] } });
    await s.connection.closed;
  });

  it('ends an open listen with its final result instead of holding the close', async () => {
    const s = await serveOnStreams();
    s.send({
      jsonrpc: '2.0',
      id: 'sub',
      method: 'subscriptions/listen',
      params: modernParams({ notifications: { toolsListChanged: true } }),
    });
    s.input.end();
    const final = await s.answerTo('sub');
    expect(final).toHaveProperty('result');
    await s.connection.closed;
  });

  it('closes after the grace period when a call does not finish, without its answer', async () => {
    const s = await serveOnStreams({ inputEndGraceMs: 20 });
    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modernParams({ name: 'slow' }) });
    await s.started.promise;
    s.input.end();
    await s.connection.closed;
    expect(s.received.filter((m) => 'id' in m && m.id === 1)).toEqual([]);
  });
});
