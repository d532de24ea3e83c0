/** The methods of the experimental core tasks of 2025-11-25; their shapes are in tasks.ts. */
import { z } from 'zod';
import type { NotificationSpec, RequestSpec } from './method-spec';
import { Cursor } from './primitives';
import { Task } from './tasks';

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
