/**
 * Task shapes, written once with their revision differences: the tasks extension
 * (`io.modelcontextprotocol/tasks`, SEP-2663) of 2026-07-28, and the experimental core tasks of
 * 2025-11-25 that it replaced (still part of that revision's schema, so kept for it). Both share
 * the status values and the identity and timestamp fields; the extension renamed the durations
 * (`ttlMs`, `pollIntervalMs`), flattened `CreateTaskResult` and inlines results in `tasks/get`.
 */
import { z } from 'zod';
import { JsonObject, MetaObject } from './primitives';

export const TaskStatus = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);

const taskBase = {
  taskId: z.string(),
  status: TaskStatus,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
};

// 2025-11-25 (legacy): the client opts in per request with `task`, durations without a unit.
export const TaskMetadata = z.looseObject({ ttl: z.number().int().optional() });
export const Task = z.looseObject({
  ...taskBase,
  ttl: z.number().int().nullable(),
  pollInterval: z.number().int().optional(),
});
export const CreateTaskResult = z.looseObject({ task: Task, _meta: MetaObject.optional() });
/** The `task` param that makes a 2025-11-25 request task-augmented. */
export const taskParamField = { task: TaskMetadata.optional() };

// The extension (2026-07-28): server-directed, flat results, durations in integer milliseconds.
const positiveMs = z.number().int().positive();
const extensionTaskFields = {
  ...taskBase,
  ttlMs: positiveMs.nullable(),
  pollIntervalMs: positiveMs.optional(),
};
export const ExtensionTask = z.looseObject(extensionTaskFields);
/** A JSON-RPC error object, as a failed task inlines it. */
export const TaskError = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
const InputRequests = z.record(z.string(), z.looseObject({ method: z.string() }));
const InputResponses = z.record(z.string(), z.unknown());
/** A task with the payload of its status: `inputRequests`, `result` or `error`. */
export const DetailedTask = z.discriminatedUnion('status', [
  z.looseObject({ ...extensionTaskFields, status: z.literal('working') }),
  z.looseObject({
    ...extensionTaskFields,
    status: z.literal('input_required'),
    inputRequests: InputRequests,
  }),
  z.looseObject({ ...extensionTaskFields, status: z.literal('completed'), result: JsonObject }),
  z.looseObject({ ...extensionTaskFields, status: z.literal('failed'), error: TaskError }),
  z.looseObject({ ...extensionTaskFields, status: z.literal('cancelled') }),
]);
export const ExtensionCreateTaskResult = z.looseObject({
  ...extensionTaskFields,
  resultType: z.literal('task'),
  _meta: MetaObject.optional(),
});
const complete = { resultType: z.literal('complete'), _meta: MetaObject.optional() };
const taskIdParams = { taskId: z.string(), _meta: MetaObject.optional() };
export const GetTaskParams = z.looseObject(taskIdParams);
export const GetTaskResult = z.intersection(DetailedTask, z.looseObject(complete));
export const UpdateTaskParams = z.looseObject({ ...taskIdParams, inputResponses: InputResponses });
export const CancelTaskParams = z.looseObject(taskIdParams);
/** The ack of `tasks/update` and `tasks/cancel`: no task fields. */
export const TaskAckResult = z.looseObject(complete);
export const TaskStatusNotificationParams = z.intersection(
  DetailedTask,
  z.looseObject({ _meta: MetaObject.optional() }),
);

/** The extension's zod schemas by public name, compiled for the run time into `tasksWire`. */
export const tasksSchemas = Object.freeze({
  TaskStatus: TaskStatus,
  Task: ExtensionTask,
  DetailedTask: DetailedTask,
  TaskError: TaskError,
  CreateTaskResult: ExtensionCreateTaskResult,
  GetTaskParams: GetTaskParams,
  GetTaskResult: GetTaskResult,
  UpdateTaskParams: UpdateTaskParams,
  CancelTaskParams: CancelTaskParams,
  TaskAckResult: TaskAckResult,
  TaskStatusNotificationParams: TaskStatusNotificationParams,
});
