/**
 * Where tasks live: a small, JSON-only interface, so that a store shared by several processes
 * (the scale-out issue brings one on Redis) lets any of them serve a task another created.
 * Beside the other shared-state interfaces because the server options name it.
 */
import type {
  ClientCapabilities,
  ErrorObject,
  InputRequest,
  TaskStatus,
} from '@twofold/protocol/experimental';
import type { AuthInfo } from '../auth/types';

/**
 * What checking the answer to one input request needs (the JSON of an asked request).
 *
 * @experimental
 */
export interface TaskAskedInput {
  readonly method: InputRequest['method'];
  readonly requestedSchema?: Record<string, unknown>;
}

/**
 * The `tools/call` a task runs, with what any process needs to run (or resume) its handler.
 *
 * @experimental
 */
export interface TaskRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  /** The authenticated caller (`principalOf`); only it may see the task. */
  readonly principal?: string | undefined;
  /** What the caller's token granted (never the token), for the handler's `context.auth`. */
  readonly auth?: AuthInfo | undefined;
}

/**
 * One round of input inside a task: what the handler asked (wire key → the handler's key and
 * what checking the answer needs), the answers so far (by the handler's key) and its state.
 *
 * @experimental
 */
export interface TaskInputRound {
  readonly round: number;
  readonly asked: Readonly<Record<string, { key: string; input: TaskAskedInput }>>;
  readonly answers: Readonly<Record<string, unknown>>;
  readonly state?: unknown;
}

/**
 * A task as stored: plain JSON (timestamps as ISO strings).
 *
 * @experimental
 */
export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number | undefined;
  /** The `CallToolResult`, once `completed`. */
  readonly result?: Record<string, unknown> | undefined;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: ErrorObject | undefined;
  /** Outstanding input requests by wire key, while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>> | undefined;
  /** Every input key sent so far: a key is never reused within a task. */
  readonly issuedKeys?: readonly string[] | undefined;
  readonly input?: TaskInputRound | undefined;
  readonly request: TaskRequest;
}

/**
 * Keeps tasks. Implementations must be safe for concurrent use and keep records as JSON.
 *
 * @experimental
 */
export interface TaskStore {
  /** Adds a new task; resolves once `get` finds it. Rejects with `TaskStoreFullError` when full. */
  create(record: TaskRecord): Promise<void>;
  /** The task, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Replaces a task unless the stored one is terminal (or gone): terminal states never change,
   * so a cancellation is never overwritten by a late result. Resolves whether it was written.
   */
  update(record: TaskRecord): Promise<boolean>;
  /**
   * For a store that replicas share: hears every task state other processes write through it
   * (`update`), so that a cancellation reaches the handler wherever it runs and
   * `notifications/tasks` reach listens on every replica. Returns the unsubscribe function.
   */
  watch?(listener: (record: TaskRecord) => void): () => void;
}

/**
 * Options of the tasks extension (`McpServerOptions.tasks`).
 *
 * @experimental
 */
export interface TaskOptions {
  /**
   * Where tasks live. Default: an `InMemoryTaskStore` of this process (1,000 tasks at most).
   * Give every replica of one endpoint the same store so any of them can serve a task.
   */
  store?: TaskStore;
  /** How long a task is kept after its creation (`ttlMs`). Default 1 hour. */
  ttlMs?: number;
  /** The polling interval suggested to clients (`pollIntervalMs`). Default 1 second. */
  pollIntervalMs?: number;
}
