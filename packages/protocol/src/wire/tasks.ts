/** The shapes of the experimental core tasks of 2025-11-25 (moved to an extension in 2026-07-28). */
import { z } from 'zod';
import { MetaObject } from './primitives';

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
