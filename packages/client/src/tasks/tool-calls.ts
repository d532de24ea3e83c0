/**
 * `tools/call` with the tasks extension: when to declare it, and what to do with the
 * `CreateTaskResult` a server may answer once it is declared. Callers that just await a result
 * get the task's result as if the call had answered it; a caller who asked for the handle gets
 * the `ToolTask`.
 */
import {
  type CallToolResult,
  isRecord,
  LocalError,
  LocalErrorCode,
  MissingRequiredClientCapabilityError,
  TASKS_EXTENSION_ID,
  tasksWire,
} from '@twofold/protocol/experimental';
import type { InputAnswerer } from '../input/answerer';
import type { CallToolOptions, RequestOptions } from '../types';
import { parseTask, type TaskSend, ToolTask } from './tool-task';

/** The longest `callTool` waits for a task it did not hand out, by default: one hour. */
export const DEFAULT_MAX_TASK_WAIT_MS = 3_600_000;

/** The extension as this client declares it in a request's capabilities. */
export const TASKS_DECLARED: Readonly<Record<string, Record<string, never>>> = Object.freeze({
  [TASKS_EXTENSION_ID]: {},
});

/** What the task calls reach into. */
export interface ToolCallParts {
  /** The request path of the client (`tools/call` with input rounds, or a plain request). */
  send: TaskSend;
  answerer: InputAnswerer;
  ended: AbortSignal;
  /** Declare the extension on every tool call (`McpClientOptions.tasks`). */
  declareAlways: boolean;
  maxTaskWaitMs: number;
}

/**
 * What `startToolTask` resolves with: the task the server made of the call, or the result it
 * answered at once.
 *
 * @experimental
 */
export type ToolCallStart =
  | { task: ToolTask; result?: undefined }
  | { task?: undefined; result: CallToolResult };

type Sender = (options: CallToolOptions) => Promise<Record<string, unknown>>;

/**
 * Options of `resumeToolTask`: with `inputMode: 'manual'` the task's input requests are left to
 * the holder (`ToolTask.answer`) instead of the client's handlers.
 *
 * @experimental
 */
export interface TaskHandleOptions extends RequestOptions {
  inputMode?: 'auto' | 'manual';
}

/** `tools/call` under the tasks extension, for one client. */
export class ToolCalls {
  constructor(private readonly parts: ToolCallParts) {}

  /**
   * Sends the call and settles a task answer: waits for the task's end (bounded by
   * `maxTaskWaitMs`), cancelling it when the caller stops waiting. A tool that needs the
   * extension (-32021 naming it) is called again with it declared.
   */
  settle(options: CallToolOptions, send: Sender): Promise<Record<string, unknown>> {
    return this.sendDeclaring(options, send).then((first) =>
      first.resultType === 'task' ? this.untilTaskEnds(first, options) : first,
    );
  }

  /** Waits for the end of the task the server made of a call. */
  private async untilTaskEnds(
    created: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<Record<string, unknown>> {
    const task = await this.adopt(created, options);
    try {
      const wait = { timeoutMs: this.parts.maxTaskWaitMs, ...signalOf(options) };
      return (await task.result(wait)) as unknown as Record<string, unknown>;
    } catch (error) {
      // The caller will never see this task: do not leave it running.
      if (isStopped(error)) await task.cancel().catch(() => undefined);
      throw error;
    }
  }

  /** Sends the call with the extension declared; a task answer becomes its handle. */
  async start(options: CallToolOptions, send: Sender): Promise<ToolCallStart> {
    const first = await send(declaring(options));
    if (first.resultType !== 'task') return { result: first as unknown as CallToolResult };
    return { task: await this.adopt(first, options) };
  }

  /** A handle on a task this client (or an earlier run of it) started. */
  async resume(taskId: string, options: TaskHandleOptions = {}): Promise<ToolTask> {
    const signal = options.signal ?? this.parts.ended;
    const state = parseTask(await this.parts.send('tasks/get', { taskId }, signal));
    return new ToolTask(this.handleParts(options), state);
  }

  private sendDeclaring(options: CallToolOptions, send: Sender) {
    if (this.parts.declareAlways || options.task) return send(declaring(options));
    return send(options).catch((error: unknown) => {
      if (!needsTasks(error)) throw error;
      return send(declaring(options));
    });
  }

  /** The handle of a `CreateTaskResult`; a state it does not carry in full is fetched. */
  private async adopt(
    created: Record<string, unknown>,
    options: TaskHandleOptions,
  ): Promise<ToolTask> {
    const parsed = tasksWire.CreateTaskResult.safeParse(created);
    if (!parsed.success) {
      throw new LocalError(
        LocalErrorCode.InvalidResult,
        `invalid tools/call task result: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    const { resultType: _, _meta: __, ...task } = parsed.data;
    // `working` and `cancelled` carry nothing more; other statuses come with their payload
    // only from `tasks/get`.
    const state = tasksWire.DetailedTask.safeParse(task);
    if (state.success) return new ToolTask(this.handleParts(options), state.data);
    return this.resume(parsed.data.taskId, options);
  }

  private handleParts(options: TaskHandleOptions) {
    const { send, answerer, ended } = this.parts;
    return { send, answerer, ended, manualInput: options.inputMode === 'manual' };
  }
}

function declaring(options: CallToolOptions): CallToolOptions {
  return { ...options, extensions: { ...options.extensions, ...TASKS_DECLARED } };
}

function needsTasks(error: unknown): boolean {
  if (!(error instanceof MissingRequiredClientCapabilityError)) return false;
  const { extensions } = error.requiredCapabilities as { extensions?: unknown };
  return isRecord(extensions) && TASKS_EXTENSION_ID in extensions;
}

function isStopped(error: unknown): boolean {
  return (
    error instanceof LocalError &&
    (error.code === LocalErrorCode.RequestAborted || error.code === LocalErrorCode.RequestTimeout)
  );
}

function signalOf(options: CallToolOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}
