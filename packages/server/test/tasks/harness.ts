/**
 * Driving the tasks extension of a real `McpServer` through its modern dispatcher: requests
 * that declare the extension (or not), polling a task until it reaches a status, and gates
 * that let a test decide when a handler goes on.
 */
import {
  createRequest,
  type JsonRpcResponse,
  TASKS_EXTENSION_ID,
} from '@twofold/protocol/experimental';
import type { AuthInfo } from '../../src/auth/types';
import { handleModernRequest } from '../../src/modern/dispatch';
import type { McpServer } from '../../src/server';
import { modernParams } from '../support/peer';
import { resultOf } from '../support/responses';

export { gate } from '../../../../config/test-support/processes.ts';

/** Client capabilities declaring the extension and form elicitation. */
export const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION_ID]: {} } };

let nextId = 1;

/** One modern request to `server`, declaring `capabilities` (the extension by default). */
export function send(
  server: McpServer,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = WITH_TASKS,
  auth?: AuthInfo,
): Promise<JsonRpcResponse> {
  return handleModernRequest(
    server,
    createRequest(nextId++, method, modernParams(params, {}, capabilities)),
    { signal: new AbortController().signal, notify: async () => undefined, auth },
  );
}

/** `tools/call` that must answer with a task: its `CreateTaskResult`. */
export async function startTask(
  server: McpServer,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const created = resultOf(await send(server, 'tools/call', { name, arguments: args }));
  if (created.resultType !== 'task') throw new Error(`no task: ${JSON.stringify(created)}`);
  return created;
}

/** `tasks/get` until the task is in one of `statuses` (a bounded number of polls). */
export async function untilStatus(
  server: McpServer,
  taskId: unknown,
  ...statuses: string[]
): Promise<Record<string, unknown>> {
  for (let poll = 0; poll < 400; poll++) {
    const task = resultOf(await send(server, 'tasks/get', { taskId }));
    if (statuses.includes(task.status as string)) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`task ${String(taskId)} never reached ${statuses.join(' or ')}`);
}
