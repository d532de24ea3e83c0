/**
 * `McpClient` and the tasks extension against a real twofold `McpServer` (in memory): a call
 * the server runs as a task resolves like any call; `startToolTask` hands out the task with its
 * states, input rounds, result, failure and cancellation; a task resumes on another client; a
 * tool that requires the extension is called again with it declared; legacy has no tasks.
 */
import {
  type JsonRpcRequest,
  LocalErrorCode,
  ProtocolError,
  TASKS_EXTENSION_ID,
} from '@twofold/protocol/experimental';
import { InputRequired, McpServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { gate } from '../../../../config/test-support/processes.ts';
import { ToolTask } from '../../src/tasks/tool-task';
import {
  connectClient,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';

useClientCleanups();

function createServer() {
  // Polling as fast as the server allows keeps the tests short; nothing here waits on time.
  const server = new McpServer({ name: 'tasks', version: '1.0.0', tasks: { pollIntervalMs: 1 } });
  const release = gate();
  const cancelled = gate();
  server.registerTool({
    name: 'build',
    taskSupport: 'optional',
    handler: async (_args, { task }) => {
      await task?.reportStatus('compiling');
      await release.wait;
      return 'built';
    },
  });
  server.registerTool({ name: 'quick', taskSupport: 'optional', handler: () => 'quick' });
  server.registerTool({ name: 'deploy', taskSupport: 'required', handler: () => 'deployed' });
  server.registerTool({
    name: 'confirm',
    taskSupport: 'required',
    handler: (_args, { inputResponse }) => {
      const answer = inputResponse('ok');
      if (answer === undefined) {
        return new InputRequired({
          ok: {
            method: 'elicitation/create',
            params: {
              message: 'Go on?',
              requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } },
            },
          },
        });
      }
      return 'action' in answer && answer.action === 'accept' ? 'confirmed' : 'declined';
    },
  });
  server.registerTool({
    name: 'crash',
    taskSupport: 'optional',
    handler: () => {
      throw new ProtocolError(-32603, 'the worker died');
    },
  });
  server.registerTool({
    name: 'endless',
    taskSupport: 'optional',
    handler: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        signal.addEventListener('abort', () => {
          cancelled.open();
          resolve('stopped');
        });
      }),
  });
  return { server, release, cancelled };
}

const declaresTasks = (request: JsonRpcRequest | undefined) => {
  const meta = (request?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const capabilities = meta?.['io.modelcontextprotocol/clientCapabilities'] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION_ID] !== undefined;
};

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text?: string }).text;

describe('tasks: calls that just await a result', () => {
  it('callTool with tasks declared resolves with the result of the task the server made', async () => {
    const { server } = createServer();
    const served = serveTarget(server);
    const { client } = await connectClient(served.target, { tasks: true });
    expect(textOf(await client.callTool('quick'))).toBe('quick');
    expect(declaresTasks(served.requests('tools/call')[0])).toBe(true);
    expect(served.requests('tasks/get').length).toBeGreaterThan(0);
  });

  it('without tasks declared, an optional tool answers directly', async () => {
    const { server } = createServer();
    const served = serveTarget(server);
    const { client } = await connectClient(served.target);
    expect(textOf(await client.callTool('quick'))).toBe('quick');
    expect(declaresTasks(served.requests('tools/call')[0])).toBe(false);
    expect(served.requests('tasks/get')).toEqual([]);
  });

  it('a tool that requires the extension (-32021) is called again with it declared', async () => {
    const { server } = createServer();
    const served = serveTarget(server);
    const { client } = await connectClient(served.target);
    expect(textOf(await client.callTool('deploy'))).toBe('deployed');
    expect(served.requests('tools/call').map(declaresTasks)).toEqual([false, true]);
  });

  it('input a task asks for is answered by the handlers through tasks/update', async () => {
    const { server } = createServer();
    const served = serveTarget(server);
    const asked: string[] = [];
    const { client } = await connectClient(served.target, {
      handlers: {
        elicitation: async (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: { go: true } };
        },
      },
    });
    expect(textOf(await client.callTool('confirm'))).toBe('confirmed');
    expect(asked).toEqual(['Go on?']);
    expect(served.requests('tasks/update')).toHaveLength(1);
  });

  it('aborting the call cancels the task', async () => {
    const { server, cancelled } = createServer();
    const served = serveTarget(server);
    const { client } = await connectClient(served.target, { tasks: true });
    const stop = new AbortController();
    const call = client.callTool('endless', {}, { signal: stop.signal });
    while (served.requests('tasks/get').length === 0) await new Promise((r) => setImmediate(r));
    stop.abort();
    expect(await rejectionOf(call)).toMatchObject({ code: LocalErrorCode.RequestAborted });
    await cancelled.wait;
    expect(served.requests('tasks/cancel')).toHaveLength(1);
  });
});

describe('tasks: the handle', () => {
  it('startToolTask: states with the status message, then the result', async () => {
    const { server, release } = createServer();
    const { client } = await connectClient(serveTarget(server).target);
    const { task } = await client.startToolTask('build');
    expect(task).toBeInstanceOf(ToolTask);
    const seen: string[] = [];
    for await (const state of task?.updates() ?? []) {
      seen.push(`${state.status}${state.statusMessage ? `: ${state.statusMessage}` : ''}`);
      if (state.statusMessage === 'compiling') release.open();
    }
    expect(seen).toContain('working: compiling');
    expect(seen.at(-1)).toMatch(/^completed/);
    expect(textOf((await task?.result()) ?? { content: [] })).toBe('built');
  });

  it('a failed task rejects with its JSON-RPC error', async () => {
    const { server } = createServer();
    const { client } = await connectClient(serveTarget(server).target);
    const { task } = await client.startToolTask('crash');
    const error = await rejectionOf(task?.result() ?? Promise.resolve());
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32603, message: 'the worker died' });
  });

  it('cancel() ends the task: the handler is aborted, result() rejects REQUEST_ABORTED', async () => {
    const { server, cancelled } = createServer();
    const { client } = await connectClient(serveTarget(server).target);
    const { task } = await client.startToolTask('endless');
    await task?.cancel();
    await cancelled.wait;
    expect(await rejectionOf(task?.result() ?? Promise.resolve())).toMatchObject({
      code: LocalErrorCode.RequestAborted,
    });
    expect(task?.state.status).toBe('cancelled');
  });

  it('a task resumes on another client by its id', async () => {
    const { server, release } = createServer();
    const served = serveTarget(server);
    const first = await connectClient(served.target);
    const { task } = await first.client.startToolTask('build');
    await first.client.close();
    const second = await connectClient(served.target);
    const resumed = await second.client.resumeToolTask(task?.taskId ?? '');
    release.open();
    expect(textOf(await resumed.result())).toBe('built');
  });

  it('a connection that ends while the task is polled fails the wait; the task resumes elsewhere', async () => {
    const { server, release } = createServer();
    const served = serveTarget(server);
    const first = await connectClient(served.target);
    const { task } = await first.client.startToolTask('build');
    const waiting = task?.result() ?? Promise.resolve();
    await first.client.close();
    expect(await rejectionOf(waiting)).toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    const second = await connectClient(served.target);
    const resumed = await second.client.resumeToolTask(task?.taskId ?? '');
    release.open();
    expect(textOf(await resumed.result())).toBe('built');
  });

  it('an unknown task id is refused by the server', async () => {
    const { server } = createServer();
    const { client } = await connectClient(serveTarget(server).target);
    const error = await rejectionOf(client.resumeToolTask('no-such-task'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602 });
  });

  it('a server answering at once gives the result, not a task', async () => {
    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.registerTool({ name: 'now', handler: () => 'now' });
    const { client } = await connectClient(serveTarget(bare).target);
    const start = await client.startToolTask('now');
    expect(start.task).toBeUndefined();
    expect(textOf(start.result ?? { content: [] })).toBe('now');
  });

  it('legacy: no tasks, the call answers directly', async () => {
    const { server } = createServer();
    const { client } = await connectClient(serveTarget(server).target, { era: 'legacy' });
    const start = await client.startToolTask('quick');
    expect(start.task).toBeUndefined();
    expect(textOf(start.result ?? { content: [] })).toBe('quick');
  });
});
