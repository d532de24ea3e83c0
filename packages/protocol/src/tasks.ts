/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for both peers: its
 * identifier, methods, schemas and types. A client declares the extension in the
 * `clientCapabilities` of a request's `_meta`; the server may then answer `tools/call` with a
 * `CreateTaskResult` (`resultType: "task"`), and the client polls `tasks/get` until the task
 * is terminal, answering `input_required` rounds with `tasks/update`.
 */
import type { z } from 'zod';
import { namedValidators } from './compiled/validator';
import type * as wire from './wire/tasks';

/**
 * The extension identifier: the key under `capabilities.extensions` on both sides.
 *
 * @experimental
 */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/**
 * The methods and the notification the extension adds (SEP-2663 removed `tasks/result` and
 * `tasks/list`; they are -32601 on 2026-07-28).
 *
 * @experimental
 */
export const TASKS_METHODS = Object.freeze({
  get: 'tasks/get',
  update: 'tasks/update',
  cancel: 'tasks/cancel',
  statusNotification: 'notifications/tasks',
});

/**
 * The statuses from which a task never changes again.
 *
 * @experimental
 */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  'completed',
  'failed',
  'cancelled',
]);

/**
 * Whether `status` is terminal (`completed`, `failed` or `cancelled`).
 *
 * @experimental
 */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/**
 * The params and result schemas of the extension's methods, for peers that validate what they
 * receive: `tools/call` may answer `CreateTaskResult`; `tasks/get` answers `GetTaskResult`;
 * `tasks/update` and `tasks/cancel` answer `TaskAckResult`; `notifications/tasks` carries
 * `TaskStatusNotificationParams`.
 *
 * @experimental
 */
export const tasksWire = namedValidators<TaskSchemaTypes>('tasks');

/** What each of `tasksWire`'s validators accepts. */
type TaskSchemaTypes = {
  [K in keyof typeof wire.tasksSchemas]: z.output<(typeof wire.tasksSchemas)[K]>;
};

/**
 * A task status.
 *
 * @experimental
 */
export type TaskStatus = z.infer<typeof wire.TaskStatus>;
/**
 * A task's metadata (the extension's `Task`), without its status payload.
 *
 * @experimental
 */
export type TaskInfo = z.infer<typeof wire.ExtensionTask>;
/**
 * A task with the payload of its status (`tasks/get` and `notifications/tasks`).
 *
 * @experimental
 */
export type DetailedTask = z.infer<typeof wire.DetailedTask>;
/**
 * The result of a `tools/call` the server turned into a task.
 *
 * @experimental
 */
export type CreateTaskResult = z.infer<typeof wire.ExtensionCreateTaskResult>;
/**
 * The params of `tasks/update`.
 *
 * @experimental
 */
export type UpdateTaskParams = z.infer<typeof wire.UpdateTaskParams>;
