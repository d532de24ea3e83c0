/**
 * The client side of the tasks extension (SEP-2663): a handle on a task the server made of a
 * `tools/call`. One poller per handle drives `tasks/get` at the server's suggested interval,
 * answers `input_required` rounds with the client's input handlers through `tasks/update`, and
 * stops at a terminal status; every reader (`updates()`, `result()`) watches that one poller.
 */
import {
  type CallToolResult,
  type DetailedTask,
  isRecord,
  isTerminalTaskStatus,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  TASKS_METHODS,
  tasksWire,
} from '@twofold/protocol/experimental';
import type { InputAnswerer } from '../input/answerer';
import { answerAll, untilAborted } from '../input/rounds';

/** What a task handle sends through: the client's request path, unvalidated. */
export type TaskSend = (
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/** The parts a handle works with. */
export interface ToolTaskParts {
  send: TaskSend;
  answerer: InputAnswerer;
  /** Aborted when the connection ends; the poller stops with its reason. */
  ended: AbortSignal;
  /** Leave `input_required` to the holder (`answer()`), as `inputMode: 'manual'` asks. */
  manualInput?: boolean;
}

/** Used when the server suggests no interval. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;

/**
 * Waiting options of {@link ToolTask.result}.
 *
 * @experimental
 */
export interface TaskWaitOptions {
  /** Stops waiting (the task goes on; `cancel()` ends it). */
  signal?: AbortSignal;
  /** Longest wait for the end, in milliseconds (`REQUEST_TIMEOUT`; the task goes on). */
  timeoutMs?: number;
}

/**
 * A tool call the server runs as a task. Its status is polled with `tasks/get` only while
 * someone waits (`result()`, `updates()`), at the interval the server suggests; input the task
 * asks for is answered with the client's handlers through `tasks/update`.
 *
 * @example
 * ```ts
 * const task = await client.startToolTask('build', { project: 'web' });
 * for await (const state of task.updates()) console.log(state.status, state.statusMessage ?? '');
 * const result = await task.result();
 * ```
 * @experimental
 */
export class ToolTask {
  private current: DetailedTask;
  private polling: Promise<DetailedTask> | undefined;
  private readonly watchers = new Set<() => void>();
  private readonly answered = new Set<string>();
  /** Who waits (`updates()` loops, `result()` calls): polling stops when no one does. */
  private readers = 0;

  constructor(
    private readonly parts: ToolTaskParts,
    first: DetailedTask,
  ) {
    this.current = first;
  }

  /** The task id, for `client.resumeToolTask` after a restart. */
  get taskId(): string {
    return this.current.taskId;
  }

  /** The last state seen (from the `tools/call` answer, a poll or a notification). */
  get state(): DetailedTask {
    return this.current;
  }

  /**
   * Every new state until the task ends (the first is the current one). Ending the loop early
   * stops nothing: the task goes on.
   */
  async *updates(): AsyncGenerator<DetailedTask> {
    this.readers++;
    try {
      let seen: DetailedTask | undefined;
      for (;;) {
        if (this.current !== seen) {
          seen = this.current;
          yield seen;
          if (isTerminalTaskStatus(seen.status)) return;
        }
        const changed = new Promise<void>((resolve) => this.watchers.add(resolve));
        await Promise.race([changed, this.poll()]);
      }
    } finally {
      this.readers--;
    }
  }

  /**
   * The tool's result once the task has completed (unchecked: `callTool` checks it against the
   * tool's `outputSchema`). A `failed` task rejects with its JSON-RPC error (`ProtocolError`), a
   * `cancelled` one with `REQUEST_ABORTED`.
   */
  async result(options: TaskWaitOptions = {}): Promise<CallToolResult> {
    this.readers++;
    let end = this.current;
    try {
      while (!isTerminalTaskStatus(end.status)) end = await bounded(this.poll(), options);
    } finally {
      this.readers--;
    }
    if (end.status === 'completed') return end.result as unknown as CallToolResult;
    if (end.status === 'failed') throw ProtocolError.fromErrorObject(end.error);
    throw new LocalError(LocalErrorCode.RequestAborted, `task ${end.taskId} was cancelled`, {
      details: { taskId: end.taskId, statusMessage: end.statusMessage },
    });
  }

  /**
   * Asks the server to cancel the task (`tasks/cancel`). Cancellation is cooperative: the task
   * may still end `completed` or `failed`.
   */
  async cancel(): Promise<void> {
    await this.parts.send(TASKS_METHODS.cancel, { taskId: this.taskId }, this.parts.ended);
  }

  /**
   * Answers input requests of an `input_required` task (`tasks/update`), for a task started or
   * resumed with `inputMode: 'manual'`. Keys not outstanding are ignored by the server.
   */
  async answer(inputResponses: Record<string, unknown>): Promise<void> {
    for (const key of Object.keys(inputResponses)) this.answered.add(key);
    const params = { taskId: this.taskId, inputResponses };
    await this.parts.send(TASKS_METHODS.update, params, this.parts.ended);
  }

  /** A state from elsewhere (`notifications/tasks`). */
  observe(state: DetailedTask): void {
    if (isTerminalTaskStatus(this.current.status)) return;
    this.current = state;
    for (const wake of this.watchers) wake();
    this.watchers.clear();
  }

  /**
   * The poller: one per handle at a time, started by a reader, ended at a terminal status or
   * when no one waits any more (the next reader starts it again).
   */
  private poll(): Promise<DetailedTask> {
    this.polling ??= this.pollUntilEnd().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async pollUntilEnd(): Promise<DetailedTask> {
    const signal = this.parts.ended;
    while (!isTerminalTaskStatus(this.current.status) && this.readers > 0) {
      if (this.current.status === 'input_required' && !this.parts.manualInput) {
        await this.answerInput(signal);
      } else await sleep(this.current.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
      const got = await this.parts.send(TASKS_METHODS.get, { taskId: this.taskId }, signal);
      this.observe(parseTask(got));
    }
    return this.current;
  }

  /** Answers the requests not answered yet, then waits the poll interval. */
  private async answerInput(signal: AbortSignal): Promise<void> {
    const task = this.current;
    if (task.status !== 'input_required') return;
    const open = Object.entries(task.inputRequests).filter(([key]) => !this.answered.has(key));
    if (open.length > 0) {
      const era = 'modern' as const;
      const work = answerAll(
        Object.fromEntries(open),
        { answerer: this.parts.answerer, era },
        signal,
      );
      const inputResponses = await untilAborted(work, signal);
      for (const key of Object.keys(inputResponses)) this.answered.add(key);
      const params = { taskId: task.taskId, inputResponses };
      await this.parts.send(TASKS_METHODS.update, params, signal);
    }
    await sleep(task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
  }
}

/** Reads a `tasks/get` result (or a `CreateTaskResult`) as a task state. */
export function parseTask(value: Record<string, unknown>): DetailedTask {
  const parsed = tasksWire.DetailedTask.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new LocalError(
    LocalErrorCode.InvalidResult,
    `invalid task state: ${parsed.error.issues[0]?.message ?? ''}`,
    { details: { taskId: isRecord(value) ? value.taskId : undefined } },
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `work` within the caller's signal and time bound; the work itself goes on. */
function bounded<T>(work: Promise<T>, { signal, timeoutMs }: TaskWaitOptions): Promise<T> {
  if (signal === undefined && timeoutMs === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = (error: LocalError) => {
      cleanup();
      reject(error);
    };
    const onAbort = () =>
      stop(
        new LocalError(LocalErrorCode.RequestAborted, 'stopped waiting for the task', {
          cause: signal?.reason,
        }),
      );
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              stop(
                new LocalError(
                  LocalErrorCode.RequestTimeout,
                  `the task did not end within ${timeoutMs} ms`,
                  {
                    details: { timeoutMs },
                  },
                ),
              ),
            timeoutMs,
          );
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}
