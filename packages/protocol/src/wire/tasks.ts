/** The experimental core tasks of 2025-11-25 (moved to an extension in 2026-07-28). */
import { z } from 'zod';
import type { NotificationSpec, RequestSpec } from './method-spec';
import { Cursor, MetaObject } from './primitives';

export const TaskStatus = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
export const TaskMetadata = z.looseObject({ ttl: z.number().int().optional() });
export const Task = z.looseObject({
  taskId: z.string(),
  status: TaskStatus,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number().int().nullable(),
  pollInterval: z.number().int().optional(),
});
export const CreateTaskResult = z.looseObject({ task: Task, _meta: MetaObject.optional() });
/** The `task` param that makes a request task-augmented. */
export const taskParamField = { task: TaskMetadata.optional() };

const taskId = { taskId: z.string() };
const taskResult = { ...Task.shape };

export const taskRequests: readonly RequestSpec[] = [
  {
    method: 'tasks/get',
    definition: 'GetTaskRequest',
    sender: 'both',
    params: taskId,
    result: taskResult,
    resultDefinition: 'GetTaskResult',
  },
  {
    method: 'tasks/result',
    definition: 'GetTaskPayloadRequest',
    sender: 'both',
    params: taskId,
    result: {},
    resultDefinition: 'GetTaskPayloadResult',
  },
  {
    method: 'tasks/cancel',
    definition: 'CancelTaskRequest',
    sender: 'both',
    params: taskId,
    result: taskResult,
    resultDefinition: 'CancelTaskResult',
  },
  {
    method: 'tasks/list',
    definition: 'ListTasksRequest',
    sender: 'both',
    optionalParams: true,
    params: { cursor: Cursor.optional() },
    result: { tasks: z.array(Task), nextCursor: Cursor.optional() },
    resultDefinition: 'ListTasksResult',
  },
];

export const taskNotifications: readonly NotificationSpec[] = [
  {
    method: 'notifications/tasks/status',
    definition: 'TaskStatusNotification',
    sender: 'both',
    params: taskResult,
  },
];
