/**
 * Tasks through the built `twofold` binary against a twofold server over HTTP in this process:
 * `tools call --task` with its status lines and Ctrl-C cancelling the task, a tool requiring
 * tasks called without `--task`, and `tasks get | wait | cancel` on a task started elsewhere.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from '../../../../config/test-support/processes.ts';
import { jsonOf, twofold, twofoldInBackground } from './support';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer() {
  const release = gate();
  const cancelled = gate();
  const server = new McpServer({ name: 'tasks', version: '1.0.0', tasks: { pollIntervalMs: 20 } });
  server.registerTool({
    name: 'build',
    taskSupport: 'optional',
    handler: async (_args, { task }) => {
      await task?.reportStatus('compiling');
      await release.wait;
      return 'built';
    },
  });
  server.registerTool({
    name: 'endless',
    taskSupport: 'optional',
    handler: (_args, { task, signal }) =>
      new Promise<string>((resolve) => {
        void task?.reportStatus('looping');
        signal.addEventListener('abort', () => {
          cancelled.open();
          resolve('stopped');
        });
      }),
  });
  server.registerTool({ name: 'deploy', taskSupport: 'required', handler: () => 'deployed' });
  const endpoint = await serve(createServerHttpHandler(server));
  cleanups.push(() => endpoint.close());
  return { url: endpoint.url.href, release, cancelled };
}

/** A task started by a client of this process, the way another program would have. */
async function startedElsewhere(url: string, tool: string): Promise<string> {
  const client = await McpClient.connect(httpServer({ url }), {
    clientInfo: { name: 'elsewhere', version: '1.0.0' },
  });
  cleanups.push(() => client.close());
  const { task } = await client.startToolTask(tool);
  if (!task) throw new Error(`${tool} was not run as a task`);
  return task.taskId;
}

describe('twofold and tasks', { timeout: 60_000 }, () => {
  it('tools call --task: a status line per state, then the result', async () => {
    const { url, release } = await startServer();
    const run = twofoldInBackground(['tools', 'call', 'build', '--task', '--url', url]);
    await run.waitFor(/working: compiling/);
    release.open();
    const done = await run.exited();
    expect(done).toMatchObject({ code: 0, stdout: 'built\n' });
    expect(done.stderr).toMatch(/task \S+ started/);
  });

  it('tools call --task: Ctrl-C cancels the task', async () => {
    const { url, cancelled } = await startServer();
    const run = twofoldInBackground(['tools', 'call', 'endless', '--task', '--url', url]);
    await run.waitFor(/working: looping/);
    const done = await run.interrupt();
    expect(done.code).toBe(130);
    expect(done.stderr).toMatch(/cancelled task \S+/);
    await cancelled.wait;
  });

  it('a tool that requires tasks runs as one without --task', async () => {
    const { url } = await startServer();
    expect(await twofold(['tools', 'call', 'deploy', '--url', url])).toMatchObject({
      code: 0,
      stdout: 'deployed\n',
    });
  });

  it('tasks get, wait and cancel reach a task started by another program', async () => {
    const { url, release, cancelled } = await startServer();
    const building = await startedElsewhere(url, 'build');
    const state = jsonOf<{ taskId: string; status: string }>(
      await twofold(['tasks', 'get', building, '--json', '--url', url]),
    );
    expect(state).toMatchObject({ taskId: building, status: 'working' });
    const waiting = twofoldInBackground(['tasks', 'wait', building, '--url', url]);
    await waiting.waitFor(/working: compiling/);
    release.open();
    expect(await waiting.exited()).toMatchObject({ code: 0, stdout: 'built\n' });

    const looping = await startedElsewhere(url, 'endless');
    const cancel = await twofold(['tasks', 'cancel', looping, '--url', url]);
    expect(cancel).toMatchObject({ code: 0 });
    expect(cancel.stderr).toContain(`asked the server to cancel task ${looping}`);
    await cancelled.wait;
    const after = jsonOf<{ status: string }>(
      await twofold(['tasks', 'get', looping, '--json', '--url', url]),
    );
    expect(after.status).toBe('cancelled');
  });

  it('an unknown task id is a clear error', async () => {
    const { url } = await startServer();
    const run = await twofold(['tasks', 'get', 'no-such-task', '--url', url]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/no-such-task|unknown task/i);
  });
});
