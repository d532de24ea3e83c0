/**
 * `notifications/tasks` on `subscriptions/listen` with `taskIds`: the task's states as
 * `tasks/get` shows them, acknowledged first, and -32021 for a listen without the extension.
 */
import {
  createRequest,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { handleModernRequest } from '../../src/modern/dispatch';
import { McpServer } from '../../src/server';
import { modernParams } from '../support/peer';
import { errorOf } from '../support/responses';
import { gate, send, startTask, WITH_TASKS } from './harness';

function createServer() {
  const server = new McpServer({ name: 'tasks-listen', version: '1.0.0' });
  const release = gate();
  server.registerTool({
    name: 'job',
    taskSupport: 'required',
    handler: async (_args, { task }) => {
      await release.wait;
      await task?.reportStatus('almost');
      return 'job done';
    },
  });
  return { server, release };
}

/** Opens a listen; `until` resolves once a notification matches, and the listen is ended. */
function listen(server: McpServer, taskIds: unknown[], capabilities = WITH_TASKS) {
  const controller = new AbortController();
  const received: JsonRpcNotification[] = [];
  let wake = () => {};
  const response: Promise<JsonRpcResponse> = handleModernRequest(
    server,
    createRequest(
      'listen-1',
      'subscriptions/listen',
      modernParams({ notifications: { taskIds } }, {}, capabilities),
    ),
    {
      signal: controller.signal,
      notify: async (notification) => {
        received.push(notification);
        wake();
      },
    },
  );
  const until = async (match: (n: JsonRpcNotification) => boolean) => {
    while (!received.some(match)) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { response, received, until, stop: () => controller.abort() };
}

describe('tasks extension: status notifications', () => {
  it('acknowledges the task ids, then sends each state of the task until it ends', async () => {
    const { server, release } = createServer();
    const created = await startTask(server, 'job');
    const other = await startTask(server, 'job');
    const listening = listen(server, [created.taskId]);
    await listening.until((n) => n.method === 'notifications/subscriptions/acknowledged');
    expect(listening.received[0]?.params).toMatchObject({
      notifications: { taskIds: [created.taskId] },
    });

    release.open();
    const completed = (n: JsonRpcNotification) =>
      n.method === 'notifications/tasks' && n.params?.status === 'completed';
    await listening.until(completed);
    listening.stop();
    await listening.response;

    const updates = listening.received.filter((n) => n.method === 'notifications/tasks');
    expect(updates.every((n) => n.params?.taskId === created.taskId)).toBe(true);
    expect(updates.map((n) => n.params?.statusMessage)).toContain('almost');
    expect(updates.find(completed)?.params).toMatchObject({
      result: { content: [{ type: 'text', text: 'job done' }] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    });
    expect(other.taskId).not.toBe(created.taskId);
  });

  it('refuses task notifications to a listen without the extension (-32021)', async () => {
    const { server } = createServer();
    const response = await send(
      server,
      'subscriptions/listen',
      { notifications: { taskIds: ['any'] } },
      {},
    );
    expect(errorOf(response)).toMatchObject({ code: -32021 });
  });
});
