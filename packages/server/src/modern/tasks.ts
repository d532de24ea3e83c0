/**
 * The tasks extension on the modern wire: `tools/call` answered with a task, and the methods
 * `tasks/get`, `tasks/update` and `tasks/cancel`. Each task request must declare the extension
 * (-32021 otherwise, before the task is looked up) and may reach only its caller's tasks.
 */
import {
  ErrorCode,
  type JsonRpcRequest,
  ProtocolError,
  TASKS_METHODS,
  tasksWire,
  type Validator,
  withServerInfo,
} from '@twofold/protocol/experimental';
import { InputRequired, type RequestContext } from '../api';
import { checkExtensionParams, requireEnvelope } from '../core/extension-methods';
import type { ModernIo } from '../core/modern-io';
import type { OperationOutcome } from '../core/operation-call';
import type { ServedServer } from '../core/served-server';
import type { TaskInputRound } from '../core/task-store';
import type { AskedInput } from '../mrtr/input-responses';
import { principalOf } from '../mrtr/modern-state';
import { declaresTasks, offersTasks, tasksRequiredError } from '../operations/task-capability';
import { tasksOf } from '../tasks/service';
import { detailedTask, taskInfo } from '../tasks/wire';
import { completeModernResult } from './results';

const PARAMS: Readonly<Record<string, Validator<Record<string, unknown>>>> = {
  [TASKS_METHODS.get]: tasksWire.GetTaskParams,
  [TASKS_METHODS.update]: tasksWire.UpdateTaskParams,
  [TASKS_METHODS.cancel]: tasksWire.CancelTaskParams,
};

/** Whether `method` is one of the extension's requests. */
export function isTaskMethod(method: string): boolean {
  return Object.hasOwn(PARAMS, method);
}

/** Serves `tasks/get`, `tasks/update` or `tasks/cancel` (-32601 when no tool supports tasks). */
export async function serveTaskMethod(
  server: ServedServer,
  message: JsonRpcRequest,
  io: ModernIo,
): Promise<Record<string, unknown>> {
  const { method } = message;
  const schema = PARAMS[method];
  if (schema === undefined || !offersTasks(server.operations.capabilities())) {
    throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  const params = checkExtensionParams(schema, message.params);
  const envelope = requireEnvelope(params);
  if (!declaresTasks(envelope.clientCapabilities)) throw tasksRequiredError();
  const tasks = tasksOf(server);
  const taskId = params.taskId as string;
  const principal = principalOf(io.auth);
  if (method === TASKS_METHODS.get) {
    return completeModernResult(
      server,
      detailedTask(await tasks.find(taskId, principal)),
      undefined,
    );
  }
  if (method === TASKS_METHODS.update) {
    const responses = params.inputResponses as Record<string, unknown>;
    await tasks.answer(taskId, responses, principal, io.onerror);
  } else {
    await tasks.cancel(taskId, principal);
  }
  return completeModernResult(server, {}, undefined);
}

/** A `tools/call` answered with a new task: its `CreateTaskResult`. */
export interface TaskOutcome {
  kind: 'task';
  result: Record<string, unknown>;
}

/**
 * Turns a `tools/call` into a task when the tool supports tasks and the request declares the
 * extension: the tool's `beforeTask` first (its input rounds and early results answer the call
 * as usual), then the task. `undefined` for any other request, which runs as usual (where a
 * `required` tool is -32021).
 *
 * @param asked - what the previous synchronous round asked (empty on a first attempt), for the
 *   task's first run.
 */
export function startToolTask(
  server: ServedServer,
  params: Record<string, unknown> | undefined,
  context: RequestContext,
  asked: Readonly<Record<string, AskedInput>>,
  io: ModernIo,
): Promise<OperationOutcome | TaskOutcome> | undefined {
  const name = params?.name as string;
  // Known at once for a call that stays a call, the common case: nothing to wait for.
  if (server.operations.taskSupport?.(name) === undefined) return undefined;
  if (!declaresTasks(context.clientCapabilities)) return undefined;
  const args = params?.arguments as Record<string, unknown> | undefined;
  return runToolTask(server, name, args, context, asked, io);
}

async function runToolTask(
  server: ServedServer,
  name: string,
  args: Record<string, unknown> | undefined,
  context: RequestContext,
  asked: Readonly<Record<string, AskedInput>>,
  io: ModernIo,
): Promise<OperationOutcome | TaskOutcome> {
  const early = await server.operations.beforeTask?.(name, args, context);
  if (early instanceof InputRequired) return { kind: 'input', input: early };
  if (early !== undefined) return { kind: 'result', result: { ...early } };
  // The answers of the last synchronous round, if one asked anything.
  const initial: TaskInputRound | undefined =
    Object.keys(asked).length === 0
      ? undefined
      : {
          round: 0,
          asked: Object.fromEntries(
            Object.entries(asked).map(([key, input]) => [key, { key, input }]),
          ),
          answers: { ...context.inputResponses },
          state: context.state,
        };
  const request = {
    name,
    arguments: args,
    protocolVersion: context.protocolVersion,
    clientCapabilities: context.clientCapabilities,
    principal: principalOf(io.auth),
    auth: io.auth,
  };
  const record = await tasksOf(server).start(request, initial, io.onerror);
  const created = { ...taskInfo(record), resultType: 'task' };
  return { kind: 'task', result: withServerInfo(created, server.serverInfo) };
}
