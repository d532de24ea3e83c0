/**
 * The life of a task: created by a `tools/call`, its handler run in the background, input
 * rounds asked through `tasks/get` and answered by `tasks/update`, cancelled by `tasks/cancel`.
 * Every step reads and writes the `TaskStore`, so a process sharing the store can serve the
 * task's requests, and resume its handler after an input round (the record holds the call).
 */
import {
  type CallToolResult,
  ErrorCode,
  type ErrorObject,
  type InputRequest,
  isTerminalTaskStatus,
  type ModernVersion,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { InputRequired, type RequestContext } from '../api';
import { toWireError } from '../core/error-mapping';
import type { ServedServer } from '../core/served-server';
import type { TaskInputRound, TaskRecord, TaskRequest, TaskStore } from '../core/task-store';
import { askedOf, inputResponseReader } from '../mrtr/input-responses';
import { checkInputRound } from '../mrtr/rounds';
import { InMemoryTaskStore, TaskStoreFullError } from './store';

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 1000;

type Report = ((error: Error) => void) | undefined;

// One service per server object, made on first use: its store and running handlers are shared
// by every request the server serves.
const services = new WeakMap<ServedServer, TaskService>();

/** The task service of `server`. */
export function tasksOf(server: ServedServer): TaskService {
  let service = services.get(server);
  if (service === undefined) {
    service = new TaskService(server);
    services.set(server, service);
  }
  return service;
}

/** Creates, runs, answers and cancels the tasks of one server. */
export class TaskService {
  private readonly store: TaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  /** Handlers running in this process, by task id. */
  private readonly running = new Map<string, AbortController>();
  private readonly listeners = new Set<(record: TaskRecord) => void>();

  constructor(private readonly server: ServedServer) {
    const options = server.options.tasks ?? {};
    this.store = options.store ?? new InMemoryTaskStore();
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.store.watch?.((record) => this.heard(record));
  }

  /**
   * Creates the task of a call and starts its handler; resolves once `tasks/get` finds it.
   * `initial` carries the inputs of the synchronous rounds that preceded it (`beforeTask`).
   */
  async start(
    request: TaskRequest,
    initial: TaskInputRound | undefined,
    report: Report,
  ): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: crypto.randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      input: initial,
      request,
    };
    try {
      await this.store.create(record);
    } catch (error) {
      if (!(error instanceof TaskStoreFullError)) throw error;
      throw new ProtocolError(ErrorCode.InternalError, error.message, {
        reason: 'task-limit',
        maxTasks: error.maxTasks,
      });
    }
    this.run(record, report);
    return record;
  }

  /**
   * Hears every state this process writes of any task (for `notifications/tasks`), and those
   * other replicas write when the store is shared and watchable; returns the unsubscribe
   * function.
   */
  onStatus(listener: (record: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The task, for its caller only; -32602 when unknown, expired or someone else's. */
  async find(taskId: string, principal: string | undefined): Promise<TaskRecord> {
    const record = await this.store.get(taskId);
    if (record === undefined || record.request.principal !== principal) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Task not found (or expired): ${taskId}`, {
        taskId,
      });
    }
    return record;
  }

  /**
   * Takes the answers to outstanding input requests; others are ignored. An answer that does
   * not fit what was asked is -32602. Once every request of the round is answered, the handler
   * runs again with the answers.
   */
  async answer(
    taskId: string,
    inputResponses: Readonly<Record<string, unknown>>,
    principal: string | undefined,
    report: Report,
  ): Promise<void> {
    const record = await this.find(taskId, principal);
    const { input, inputRequests } = record;
    if (record.status !== 'input_required' || input === undefined) return;
    const outstanding: Record<string, InputRequest> = { ...inputRequests };
    const answered = Object.keys(inputResponses).filter((key) => Object.hasOwn(outstanding, key));
    if (answered.length === 0) return;
    const byWireKey = Object.fromEntries(
      Object.entries(input.asked).map(([key, asked]) => [key, asked.input]),
    );
    const check = inputResponseReader(version(record), inputResponses, byWireKey);
    const answers: Record<string, unknown> = { ...input.answers };
    for (const key of answered) {
      check(key);
      answers[input.asked[key]?.key ?? key] = inputResponses[key];
      delete outstanding[key];
    }
    const pending = Object.keys(outstanding).length > 0;
    const next: TaskRecord = {
      ...record,
      status: pending ? 'input_required' : 'working',
      lastUpdatedAt: new Date().toISOString(),
      inputRequests: pending ? outstanding : undefined,
      input: { ...input, answers },
    };
    if (!(await this.write(next))) return;
    if (!pending) this.run(next, report);
  }

  /** Cancels a task that is not terminal yet (a terminal one stays as it is). */
  async cancel(taskId: string, principal: string | undefined): Promise<void> {
    const record = await this.find(taskId, principal);
    if (isTerminalTaskStatus(record.status)) return;
    await this.write({
      ...record,
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
      lastUpdatedAt: new Date().toISOString(),
      inputRequests: undefined,
    });
    this.stopHere(taskId);
  }

  private run(record: TaskRecord, report: Report): void {
    const controller = new AbortController();
    this.running.set(record.taskId, controller);
    this.execute(record, controller.signal, report)
      .catch((error: unknown) =>
        report?.(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        if (this.running.get(record.taskId) === controller) this.running.delete(record.taskId);
      });
  }

  private async execute(record: TaskRecord, signal: AbortSignal, report: Report): Promise<void> {
    const { name, arguments: args } = record.request;
    let outcome: CallToolResult | InputRequired;
    try {
      outcome = await this.server.operations.callTool(name, args, this.contextOf(record, signal));
      if (outcome instanceof InputRequired) {
        await this.ask(record, outcome, signal, report);
        return;
      }
    } catch (error) {
      const failure = toWireError(error, 'modern', 'tools/call', report);
      await this.settle(record.taskId, failed(failure));
      return;
    }
    await this.settle(record.taskId, { status: 'completed', result: { ...outcome } });
  }

  /** The handler asked for input: the next round, with keys never used before in this task. */
  private async ask(
    record: TaskRecord,
    input: InputRequired,
    signal: AbortSignal,
    report: Report,
  ): Promise<void> {
    const round = (record.input?.round ?? 0) + 1;
    checkInputRound(input.inputRequests, record.request.clientCapabilities, round);
    const issued = new Set(record.issuedKeys);
    const inputRequests: Record<string, InputRequest> = {};
    const asked: Record<string, TaskInputRound['asked'][string]> = {};
    const checks = askedOf(input.inputRequests);
    for (const [key, request] of Object.entries(input.inputRequests)) {
      let wireKey = key;
      for (let n = 2; issued.has(wireKey); n++) wireKey = `${key}-${n}`;
      issued.add(wireKey);
      inputRequests[wireKey] = request;
      asked[wireKey] = { key, input: checks[key] as TaskInputRound['asked'][string]['input'] };
    }
    const next: TaskInputRound = { round, asked, answers: {}, state: input.state };
    if (Object.keys(inputRequests).length === 0) {
      // A state-only round asks nothing: run again at once.
      await this.execute({ ...record, input: next }, signal, report);
      return;
    }
    await this.settle(record.taskId, {
      status: 'input_required',
      inputRequests,
      issuedKeys: [...issued],
      input: next,
    });
  }

  /** Writes a new state onto the stored record, unless it is terminal (cancelled) by now. */
  private async settle(taskId: string, change: Partial<TaskRecord>): Promise<void> {
    const current = await this.store.get(taskId);
    if (current === undefined || isTerminalTaskStatus(current.status)) return;
    await this.write({ ...current, ...change, lastUpdatedAt: new Date().toISOString() });
  }

  /** Updates the stored task and tells the listeners; whether it was written. */
  private async write(record: TaskRecord): Promise<boolean> {
    const written = await this.store.update(record);
    if (written) this.tell(record);
    return written;
  }

  /** Another replica wrote a state: a cancelled task stops here too if it runs here. */
  private heard(record: TaskRecord): void {
    if (record.status === 'cancelled') this.stopHere(record.taskId);
    this.tell(record);
  }

  /** Aborts the handler of a cancelled task, if it runs in this process. */
  private stopHere(taskId: string): void {
    this.running.get(taskId)?.abort(new Error('The task was cancelled'));
  }

  private tell(record: TaskRecord): void {
    for (const listener of this.listeners) listener(record);
  }

  /** What the handler of a task sees: no progress or logs (tasks carry neither), `task`. */
  private contextOf(record: TaskRecord, signal: AbortSignal): RequestContext {
    const { request, input, taskId } = record;
    const asked =
      input === undefined
        ? undefined
        : Object.fromEntries(Object.values(input.asked).map(({ key, input }) => [key, input]));
    return {
      era: 'modern',
      protocolVersion: request.protocolVersion,
      requestId: taskId,
      clientCapabilities: request.clientCapabilities,
      signal,
      auth: request.auth,
      inputResponses: input?.answers,
      inputResponse: inputResponseReader(version(record), input?.answers, asked),
      state: input?.state,
      progress: async () => {},
      log: async () => {},
      task: {
        taskId,
        signal,
        reportStatus: (statusMessage) => this.settle(taskId, { statusMessage }),
      },
    };
  }
}

function version(record: TaskRecord): ModernVersion {
  return record.request.protocolVersion as ModernVersion;
}

function failed(error: ErrorObject): Partial<TaskRecord> {
  return { status: 'failed', statusMessage: error.message, error };
}
