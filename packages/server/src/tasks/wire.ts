/** A stored task as the wire shows it: `CreateTaskResult`, and the `DetailedTask` of `tasks/get`. */
import type { TaskInfo } from '@twofold/protocol/experimental';
import type { TaskRecord } from '../core/task-store';

/** The task's metadata: what every task shape carries. */
export function taskInfo(record: TaskRecord): TaskInfo {
  const info: TaskInfo = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) info.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) info.pollIntervalMs = record.pollIntervalMs;
  return info;
}

/** The metadata with the payload of the status: input requests, result or error. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = { ...taskInfo(record) };
  if (record.status === 'input_required') task.inputRequests = record.inputRequests ?? {};
  if (record.status === 'completed') task.result = record.result ?? {};
  if (record.status === 'failed') task.error = record.error;
  return task;
}
