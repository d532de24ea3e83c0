/**
 * The tasks extension on a real `McpServer`: negotiation, task creation, results and errors
 * inlined in `tasks/get`, status messages and cancellation.
 */
import { ProtocolError, TASKS_EXTENSION_ID } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server';
import { errorOf, resultOf } from '../support/responses';
import { gate, send, startTask, untilStatus } from './harness';

function createServer() {
  const server = new McpServer({ name: 'tasks', version: '1.0.0' });
  const release = gate();
  const seen: { signal?: AbortSignal } = {};
  server.registerTool({ name: 'plain', handler: () => 'plain' });
  server.registerTool({
    name: 'build',
    inputSchema: { type: 'object', properties: { quick: { type: 'boolean' } } },
    taskSupport: 'optional',
    beforeTask: (args: { quick?: boolean }) => (args.quick ? 'built at once' : undefined),
    handler: async (_args, { task, signal }) => {
      seen.signal = signal;
      await task?.reportStatus('compiling');
      await release.wait;
      return `built${task ? ` in ${task.taskId}` : ''}`;
    },
  });
  server.registerTool({
    name: 'deploy',
    taskSupport: 'required',
    handler: () => 'deployed',
  });
  server.registerTool({
    name: 'broken',
    taskSupport: 'optional',
    handler: () => {
      throw new Error('disk full');
    },
  });
  server.registerTool({
    name: 'crash',
    taskSupport: 'optional',
    handler: () => {
      throw new ProtocolError(-32603, 'the worker died', { worker: 3 });
    },
  });
  return { server, release, seen };
}

describe('tasks extension: negotiation', () => {
  it('advertises the extension on server/discover once a tool supports tasks', async () => {
    const { server } = createServer();
    const discovered = resultOf(await send(server, 'server/discover'));
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION_ID]: {} } });
    expect(discovered.capabilities).not.toHaveProperty('tasks');

    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.registerTool({ name: 'plain', handler: () => 'plain' });
    expect(resultOf(await send(bare, 'server/discover')).capabilities).not.toHaveProperty(
      'extensions',
    );
    expect(errorOf(await send(bare, 'tasks/get', { taskId: 'x' })).code).toBe(-32601);
  });

  it('answers at once when the client does not declare the extension', async () => {
    const { server, release } = createServer();
    release.open();
    const result = resultOf(await send(server, 'tools/call', { name: 'build' }, {}));
    expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'built' }] });
    expect(result).not.toHaveProperty('taskId');
  });

  it('refuses a required-task tool, and the task methods, to a client without it (-32021)', async () => {
    const { server } = createServer();
    const required = { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } };
    expect(errorOf(await send(server, 'tools/call', { name: 'deploy' }, {}))).toMatchObject({
      code: -32021,
      data: required,
    });
    for (const [method, params] of [
      ['tasks/get', { taskId: 'unknown' }],
      ['tasks/update', { taskId: 'unknown', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'unknown' }],
    ] as const) {
      expect(errorOf(await send(server, method, params, {}))).toMatchObject({ code: -32021 });
    }
  });

  it('answers the removed tasks/result and tasks/list with -32601', async () => {
    const { server } = createServer();
    expect(errorOf(await send(server, 'tasks/result', { taskId: 'x' })).code).toBe(-32601);
    expect(errorOf(await send(server, 'tasks/list')).code).toBe(-32601);
  });

  it('leaves tools without taskSupport, and early results of beforeTask, synchronous', async () => {
    const { server } = createServer();
    const plain = resultOf(await send(server, 'tools/call', { name: 'plain', task: { ttl: 5 } }));
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    const quick = resultOf(
      await send(server, 'tools/call', { name: 'build', arguments: { quick: true } }),
    );
    expect(quick).toMatchObject({ resultType: 'complete', content: [{ text: 'built at once' }] });
  });
});

describe('tasks extension: lifecycle', () => {
  it('creates a flat task, reports its status message, then inlines the result', async () => {
    const { server, release } = createServer();
    const created = await startTask(server, 'build');
    expect(created).toMatchObject({ status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    for (const absent of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl']) {
      expect(created).not.toHaveProperty(absent);
    }
    expect(Date.parse(created.createdAt as string)).not.toBeNaN();

    const working = await untilStatus(server, created.taskId, 'working');
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId });
    await eventuallyMessage(server, created.taskId, 'compiling');

    release.open();
    const done = await untilStatus(server, created.taskId, 'completed');
    expect(done.result).toEqual({
      content: [{ type: 'text', text: `built in ${created.taskId}` }],
    });
  });

  it('keeps a thrown error a tool error (completed) and a protocol error a failure', async () => {
    const { server } = createServer();
    const broken = await startTask(server, 'broken');
    expect((await untilStatus(server, broken.taskId, 'completed', 'failed')).result).toMatchObject({
      isError: true,
      content: [{ text: 'disk full' }],
    });
    const crash = await startTask(server, 'crash');
    const failed = await untilStatus(server, crash.taskId, 'completed', 'failed');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the worker died', data: { worker: 3 } },
    });
    expect(failed).not.toHaveProperty('result');
  });

  it('cancels a running task: empty ack, the handler signal aborts, the status stays cancelled', async () => {
    const { server, release, seen } = createServer();
    const created = await startTask(server, 'build');
    await untilStatus(server, created.taskId, 'working');
    const ack = resultOf(await send(server, 'tasks/cancel', { taskId: created.taskId }));
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(seen.signal?.aborted).toBe(true);
    release.open();
    expect((await untilStatus(server, created.taskId, 'cancelled')).status).toBe('cancelled');
    // The late result does not replace the cancellation.
    await new Promise((resolve) => setImmediate(resolve));
    expect(resultOf(await send(server, 'tasks/get', { taskId: created.taskId })).status).toBe(
      'cancelled',
    );
  });

  it('acks cancelling a finished task and leaves it as it was', async () => {
    const { server, release } = createServer();
    release.open();
    const created = await startTask(server, 'build');
    await untilStatus(server, created.taskId, 'completed');
    const ack = resultOf(await send(server, 'tasks/cancel', { taskId: created.taskId }));
    expect(ack.resultType).toBe('complete');
    expect(resultOf(await send(server, 'tasks/get', { taskId: created.taskId })).status).toBe(
      'completed',
    );
  });
});

/** Polls until the task's status message reads `message`. */
async function eventuallyMessage(server: McpServer, taskId: unknown, message: string) {
  for (let poll = 0; poll < 400; poll++) {
    const task = resultOf(await send(server, 'tasks/get', { taskId }));
    if (task.statusMessage === message) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`status message never became ${message}`);
}
