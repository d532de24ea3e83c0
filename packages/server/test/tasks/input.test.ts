/**
 * Input inside a task (`tasks/get` shows the requests, `tasks/update` answers them), and input
 * gathered synchronously before a task starts (`beforeTask` with multi-round-trip results).
 */
import type { InputRequest } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { InputRequired } from '../../src/api';
import { McpServer } from '../../src/server';
import { errorOf, resultOf } from '../support/responses';
import { send, startTask, untilStatus } from './harness';

function ask(field: string, type = 'string'): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: `Your ${field}?`,
      requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
    },
  };
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

function createServer() {
  const server = new McpServer({ name: 'tasks-input', version: '1.0.0' });
  server.registerTool({
    name: 'signup',
    taskSupport: 'optional',
    handler: (_args, { inputResponse }) => {
      const name = inputResponse('name');
      const age = inputResponse('age');
      if (name === undefined || age === undefined) {
        return new InputRequired({ name: ask('name'), age: ask('age', 'number') });
      }
      return `signed up ${JSON.stringify([name, age].map((a) => (a as { content: unknown }).content))}`;
    },
  });
  // Asks under the same key twice: the second round must get a fresh wire key.
  server.registerTool({
    name: 'twice',
    taskSupport: 'optional',
    handler: (_args, { inputResponse, state }) => {
      const round = (state as number | undefined) ?? 0;
      const answer = inputResponse('ok');
      if (round < 2) return new InputRequired({ ok: ask('ok', 'boolean') }, round + 1);
      return `done after ${round} rounds, ok=${JSON.stringify(answer)}`;
    },
  });
  server.registerTool({
    name: 'greet_later',
    taskSupport: 'optional',
    beforeTask: (_args, { inputResponse }) =>
      inputResponse('who') === undefined ? new InputRequired({ who: ask('who') }) : undefined,
    handler: (_args, { inputResponse, task }) => {
      const who = (inputResponse('who') as { content: { who: string } }).content.who;
      return `hello ${who}${task ? ' from a task' : ''}`;
    },
  });
  return server;
}

describe('tasks extension: input inside a task', () => {
  it('shows every outstanding request, keeps the unanswered ones, then resumes', async () => {
    const server = createServer();
    const created = await startTask(server, 'signup');
    const waiting = await untilStatus(server, created.taskId, 'input_required');
    expect(Object.keys(waiting.inputRequests as object).sort()).toEqual(['age', 'name']);

    const partial = { taskId: created.taskId, inputResponses: { name: accept({ name: 'Ada' }) } };
    expect(resultOf(await send(server, 'tasks/update', partial))).toMatchObject({
      resultType: 'complete',
    });
    const still = resultOf(await send(server, 'tasks/get', { taskId: created.taskId }));
    expect(still.status).toBe('input_required');
    expect(Object.keys(still.inputRequests as object)).toEqual(['age']);

    const rest = {
      taskId: created.taskId,
      inputResponses: { age: accept({ age: 36 }), stranger: { ignored: true } },
    };
    resultOf(await send(server, 'tasks/update', rest));
    const done = await untilStatus(server, created.taskId, 'completed');
    expect(done.result).toMatchObject({
      content: [{ text: 'signed up [{"name":"Ada"},{"age":36}]' }],
    });
  });

  it('refuses an answer that does not fit its request (-32602) and keeps waiting', async () => {
    const server = createServer();
    const created = await startTask(server, 'signup');
    await untilStatus(server, created.taskId, 'input_required');
    const wrong = { taskId: created.taskId, inputResponses: { age: accept({ age: 'old' }) } };
    expect(errorOf(await send(server, 'tasks/update', wrong))).toMatchObject({
      code: -32602,
      data: { reason: 'invalid-input-response', key: 'age' },
    });
    const task = resultOf(await send(server, 'tasks/get', { taskId: created.taskId }));
    expect(Object.keys(task.inputRequests as object).sort()).toEqual(['age', 'name']);
  });

  it('never reuses an input key within a task', async () => {
    const server = createServer();
    const created = await startTask(server, 'twice');
    const keys: string[] = [];
    for (let round = 0; round < 2; round++) {
      const task = await untilStatus(server, created.taskId, 'input_required');
      const [key] = Object.keys(task.inputRequests as object);
      if (key === undefined || keys.includes(key)) throw new Error(`key reused: ${key}`);
      keys.push(key);
      const answer = { taskId: created.taskId, inputResponses: { [key]: accept({ ok: true }) } };
      resultOf(await send(server, 'tasks/update', answer));
    }
    expect(keys).toEqual(['ok', 'ok-2']);
    const done = await untilStatus(server, created.taskId, 'completed');
    expect(done.result).toMatchObject({
      content: [{ text: 'done after 2 rounds, ok={"action":"accept","content":{"ok":true}}' }],
    });
  });

  it('fails the task when it asks for input the client did not declare', async () => {
    const server = createServer();
    const noForms = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const created = resultOf(await send(server, 'tools/call', { name: 'signup' }, noForms));
    for (let poll = 0; poll < 400; poll++) {
      const task = resultOf(await send(server, 'tasks/get', { taskId: created.taskId }, noForms));
      if (task.status === 'failed') {
        expect(task.error).toMatchObject({ code: -32021 });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('the task never failed');
  });
});

describe('tasks extension: input before the task', () => {
  it('asks with an input_required result first, then creates the task with the answers', async () => {
    const server = createServer();
    const first = resultOf(await send(server, 'tools/call', { name: 'greet_later' }));
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { who: {} } });
    expect(first).not.toHaveProperty('taskId');
    const retry = {
      name: 'greet_later',
      inputResponses: { who: accept({ who: 'Grace' }) },
      requestState: first.requestState,
    };
    const created = resultOf(await send(server, 'tools/call', retry));
    expect(created.resultType).toBe('task');
    expect(created).not.toHaveProperty('requestState');
    expect(created).not.toHaveProperty('inputRequests');
    const done = await untilStatus(server, created.taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ text: 'hello Grace from a task' }] });
  });
});
