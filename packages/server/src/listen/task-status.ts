/**
 * `notifications/tasks` on a `subscriptions/listen` that names `taskIds` (the tasks
 * extension): every state of those tasks, as `tasks/get` would show it, to the caller that
 * created them only. Another process's writes are heard when the task store watches them.
 */
import {
  type ClientCapabilities,
  createNotification,
  type JsonRpcNotification,
  META_KEYS,
  type RequestId,
  type ServerCapabilities,
  TASKS_METHODS,
} from '@twofold/protocol/experimental';
import type { ServedServer } from '../core/served-server';
import { declaresTasks, offersTasks, tasksRequiredError } from '../operations/task-capability';
import { tasksOf } from '../tasks/service';
import { detailedTask } from '../tasks/wire';

/** A listen asking for task notifications must declare the extension (-32021 otherwise). */
export function checkTaskSubscription(
  requested: Readonly<Record<string, unknown>>,
  clientCapabilities: ClientCapabilities,
): void {
  if (requested.taskIds !== undefined && !declaresTasks(clientCapabilities)) {
    throw tasksRequiredError();
  }
}

/** The task ids a listen asked for, when the server offers tasks (`undefined`: none). */
export function honouredTaskIds(
  requested: Readonly<Record<string, unknown>>,
  capabilities: ServerCapabilities,
): string[] | undefined {
  const { taskIds } = requested;
  if (!Array.isArray(taskIds) || !offersTasks(capabilities)) return undefined;
  return taskIds.filter((id): id is string => typeof id === 'string');
}

/** Pushes the status notifications of `taskIds` owned by `principal`; returns the stop. */
export function subscribeTaskStatus(
  server: ServedServer,
  taskIds: readonly string[],
  principal: string | undefined,
  subscriptionId: RequestId,
  push: (notification: JsonRpcNotification) => void,
): () => void {
  const wanted = new Set(taskIds);
  return tasksOf(server).onStatus((record) => {
    if (!wanted.has(record.taskId) || record.request.principal !== principal) return;
    const params = {
      ...detailedTask(record),
      _meta: { [META_KEYS.subscriptionId]: subscriptionId },
    };
    push(createNotification(TASKS_METHODS.statusNotification, params));
  });
}
