/**
 * The task store behind the extension: unknown and expired tasks, the bound on live tasks, a
 * second server sharing the store, and the `Mcp-Name` routing header of task requests on HTTP.
 */
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { InputRequired } from '../../src/api';
import type { TaskStore } from '../../src/core/task-store';
import { createServerHttpHandler } from '../../src/serve/http-handler';
import { McpServer } from '../../src/server';
import { InMemoryTaskStore } from '../../src/tasks/store';
import { messagesOf, modernPost } from '../support/http-posts';
import { modernParams } from '../support/peer';
import { errorOf, resultOf } from '../support/responses';
import { gate, send, startTask, untilStatus, WITH_TASKS } from './harness';

function createServer(store: TaskStore, ttlMs = 60_000) {
  const server = new McpServer({ name: 'tasks-store', version: '1.0.0', tasks: { store, ttlMs } });
  const release = gate();
  server.registerTool({
    name: 'job',
    taskSupport: 'required',
    handler: async () => {
      await release.wait;
      return 'job done';
    },
  });
  server.registerTool({
    name: 'approve',
    taskSupport: 'required',
    handler: (_args, { inputResponses }) =>
      inputResponses?.ok === undefined
        ? new InputRequired({
            ok: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object' } },
            },
          })
        : 'approved',
  });
  return { server, release };
}

describe('tasks extension: the store', () => {
  it('answers an unknown task id with -32602 on every task method', async () => {
    const { server } = createServer(new InMemoryTaskStore());
    for (const [method, params] of [
      ['tasks/get', { taskId: 'no-such-task' }],
      ['tasks/update', { taskId: 'no-such-task', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'no-such-task' }],
    ] as const) {
      expect(errorOf(await send(server, method, params))).toMatchObject({
        code: -32602,
        data: { taskId: 'no-such-task' },
      });
    }
  });

  it('forgets a task once its ttlMs has passed', async () => {
    const clock = { offset: 0 };
    const store = new InMemoryTaskStore({ now: () => Date.now() + clock.offset });
    const { server } = createServer(store, 1000);
    const created = await startTask(server, 'job');
    expect(created.ttlMs).toBe(1000);
    expect(resultOf(await send(server, 'tasks/get', { taskId: created.taskId })).status).toBe(
      'working',
    );
    clock.offset = 1000;
    expect(errorOf(await send(server, 'tasks/get', { taskId: created.taskId })).code).toBe(-32602);
  });

  it('refuses a task beyond the store limit (-32603, task-limit) until one expires', async () => {
    const clock = { offset: 0 };
    const store = new InMemoryTaskStore({ maxTasks: 2, now: () => Date.now() + clock.offset });
    const { server, release } = createServer(store, 1000);
    await startTask(server, 'job');
    await startTask(server, 'job');
    expect(errorOf(await send(server, 'tools/call', { name: 'job' }))).toMatchObject({
      code: -32603,
      data: { reason: 'task-limit', maxTasks: 2 },
    });
    release.open();
    clock.offset = 1000;
    expect((await startTask(server, 'job')).status).toBe('working');
  });

  it('lets a second server sharing the store serve, answer and cancel the tasks', async () => {
    const store = new InMemoryTaskStore();
    const first = createServer(store);
    const second = createServer(store);
    const created = await startTask(first.server, 'approve');
    const waiting = await untilStatus(second.server, created.taskId, 'input_required');
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['ok']);
    const answer = { taskId: created.taskId, inputResponses: { ok: { action: 'accept' } } };
    resultOf(await send(second.server, 'tasks/update', answer));
    // The second server resumed the handler from the stored call.
    const done = await untilStatus(first.server, created.taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ text: 'approved' }] });

    const job = await startTask(first.server, 'job');
    resultOf(await send(second.server, 'tasks/cancel', { taskId: job.taskId }));
    first.release.open();
    expect((await untilStatus(first.server, job.taskId, 'cancelled')).status).toBe('cancelled');
  });

  it("shows a task to its caller only, and gives the handler the caller's auth", async () => {
    const { server, release } = createServer(new InMemoryTaskStore());
    const alice = { subject: 'alice', clientId: 'app', scopes: ['build'] };
    const bob = { subject: 'bob', clientId: 'app', scopes: ['build'] };
    server.registerTool({
      name: 'whoami',
      taskSupport: 'required',
      handler: (_args, { auth }) => `${auth?.subject}`,
    });
    const created = resultOf(
      await send(server, 'tools/call', { name: 'whoami' }, WITH_TASKS, alice),
    );
    const get = { taskId: created.taskId };
    expect(errorOf(await send(server, 'tasks/get', get, WITH_TASKS, bob)).code).toBe(-32602);
    expect(errorOf(await send(server, 'tasks/cancel', get, WITH_TASKS, bob)).code).toBe(-32602);
    for (let poll = 0; poll < 400; poll++) {
      const task = resultOf(await send(server, 'tasks/get', get, WITH_TASKS, alice));
      if (task.status === 'completed') {
        expect(task.result).toMatchObject({ content: [{ text: 'alice' }] });
        release.open();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('the task never completed');
  });

  it('rejects a non-positive store limit', () => {
    expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow(TypeError);
  });
});

describe('tasks extension: HTTP routing headers', () => {
  const endpoints: ServedEndpoint[] = [];
  afterEach(async () => {
    for (const endpoint of endpoints.splice(0)) await endpoint.close();
  });

  it('requires Mcp-Name to be the task id on tasks/get (400, -32020 otherwise)', async () => {
    const { server } = createServer(new InMemoryTaskStore());
    const endpoint = await serve(createServerHttpHandler(server), { port: 0 });
    endpoints.push(endpoint);
    const call = await modernPost(
      endpoint.url,
      1,
      'tools/call',
      modernParams({ name: 'job' }, {}, WITH_TASKS),
    );
    const created = (await messagesOf(call))[0]?.result as Record<string, unknown>;
    expect(created.resultType).toBe('task');

    const params = modernParams({ taskId: created.taskId }, {}, WITH_TASKS);
    const matched = await modernPost(endpoint.url, 2, 'tasks/get', params);
    expect(matched.status).toBe(200);
    expect((await messagesOf(matched))[0]).toMatchObject({ result: { taskId: created.taskId } });

    const headers = { 'mcp-name': 'another-task' };
    const mismatched = await modernPost(endpoint.url, 3, 'tasks/get', params, { headers });
    expect(mismatched.status).toBe(400);
    expect((await messagesOf(mismatched))[0]).toMatchObject({ error: { code: -32020 } });
  });
});
