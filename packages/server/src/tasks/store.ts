/** The default task store: this process's memory, bounded and expiring. */
import { isTerminalTaskStatus } from '@twofold/protocol/experimental';
import type { TaskRecord, TaskStore } from '../core/task-store';

/**
 * A store refused a new task: it holds as many live tasks as it may.
 *
 * @experimental
 */
export class TaskStoreFullError extends Error {
  override readonly name = 'TaskStoreFullError';
  constructor(readonly maxTasks: number) {
    super(`The task store holds ${maxTasks} tasks, its limit`);
  }
}

/**
 * Options of {@link InMemoryTaskStore}.
 *
 * @experimental
 */
export interface InMemoryTaskStoreOptions {
  /**
   * Live (unexpired) tasks kept at once, terminal ones included: a new task beyond it is
   * refused (`tools/call` answers -32603, `data.reason: "task-limit"`) until expiries make
   * room. Default 1,000.
   */
  maxTasks?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const DEFAULT_MAX_TASKS = 1000;

/** Whether `record` has outlived its TTL at `now`. */
export function isExpired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && now >= Date.parse(record.createdAt) + record.ttlMs;
}

/**
 * The default store: this process's memory, bounded and expiring (a task is dropped once its
 * `ttlMs` has passed since `createdAt`).
 *
 * @experimental
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, string>();
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!Number.isInteger(this.maxTasks) || this.maxTasks < 1) {
      throw new TypeError('InMemoryTaskStore maxTasks must be a positive integer');
    }
    this.now = options.now ?? Date.now;
  }

  async create(record: TaskRecord): Promise<void> {
    if (this.records.size >= this.maxTasks) this.sweep();
    if (this.records.size >= this.maxTasks) throw new TaskStoreFullError(this.maxTasks);
    // Stored as JSON text: what a shared store would hold, and no aliasing with callers.
    this.records.set(record.taskId, JSON.stringify(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.live(taskId);
  }

  async update(record: TaskRecord): Promise<boolean> {
    const stored = this.live(record.taskId);
    if (stored === undefined || isTerminalTaskStatus(stored.status)) return false;
    this.records.set(record.taskId, JSON.stringify(record));
    return true;
  }

  private live(taskId: string): TaskRecord | undefined {
    const text = this.records.get(taskId);
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as TaskRecord;
    if (!isExpired(record, this.now())) return record;
    this.records.delete(taskId);
    return undefined;
  }

  private sweep(): void {
    for (const taskId of [...this.records.keys()]) this.live(taskId);
  }
}
