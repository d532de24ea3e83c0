/**
 * A `TaskStore` on Redis: a task created by one replica is served, updated and cancelled by any
 * other. Each task is one JSON string key that expires with the task's `ttlMs`; a sorted set of
 * task ids scored by expiry counts the live ones for the store's limit.
 */
import { type TaskRecord, type TaskStore, TaskStoreFullError } from '@twofold/server/experimental';
import type { Redis } from 'ioredis';

/**
 * Options of {@link RedisTaskStore}.
 *
 * @experimental
 */
export interface RedisTaskStoreOptions {
  /** Prefix of the store's keys. Default `twofold:task:`. */
  keyPrefix?: string;
  /**
   * Live tasks kept at once over every replica, terminal ones included; a new task beyond it is
   * refused (`TaskStoreFullError`) until expiries make room. Default 10,000.
   */
  maxTasks?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

const DEFAULT_MAX_TASKS = 10_000;
/** Kept for a task without a TTL (`ttlMs: null`): a day, so that Redis never fills for good. */
const UNLIMITED_TTL_MS = 24 * 60 * 60 * 1000;

// KEYS: task key, index key. ARGV: record JSON, id, expiry (ms since epoch), ttl ms, now, max.
// Drops expired ids, refuses when full, else writes the task (new ids only) and indexes it.
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 'full' end
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4], 'NX') then return 'exists' end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return 'ok'`;

// KEYS: task key. ARGV: record JSON. Writes unless the stored task is gone or terminal.
const UPDATE = `
local stored = redis.call('GET', KEYS[1])
if not stored then return 0 end
local status = cjson.decode(stored).status
if status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1`;

/**
 * Tasks in Redis for every replica of an endpoint: give each replica's `McpServer` the same
 * store (`tasks: { store }`). Updates are atomic (a Lua script): a terminal task is never
 * overwritten, so a cancellation recorded by one replica is not undone by a late result on
 * another.
 *
 * @example
 * ```ts
 * const server = new McpServer({
 *   name: 'replica',
 *   version: '1.0.0',
 *   tasks: { store: new RedisTaskStore(new Redis(process.env.REDIS_URL ?? '')) },
 * });
 * ```
 *
 * @experimental
 */
export class RedisTaskStore implements TaskStore {
  private readonly keyPrefix: string;
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    options: RedisTaskStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'twofold:task:';
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!Number.isInteger(this.maxTasks) || this.maxTasks < 1) {
      throw new TypeError('RedisTaskStore maxTasks must be a positive integer');
    }
    this.now = options.now ?? Date.now;
  }

  async create(record: TaskRecord): Promise<void> {
    const now = this.now();
    const ttlMs = Math.max(1, expiresAt(record) - now);
    const answer = await this.redis.eval(
      CREATE,
      2,
      this.key(record.taskId),
      this.indexKey(),
      JSON.stringify(record),
      record.taskId,
      now + ttlMs,
      ttlMs,
      now,
      this.maxTasks,
    );
    if (answer === 'full') throw new TaskStoreFullError(this.maxTasks);
    if (answer === 'exists') throw new Error(`A task ${record.taskId} exists already`);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.get(this.key(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async update(record: TaskRecord): Promise<boolean> {
    const written = await this.redis.eval(
      UPDATE,
      1,
      this.key(record.taskId),
      JSON.stringify(record),
    );
    return written === 1;
  }

  private key(taskId: string): string {
    return `${this.keyPrefix}${taskId}`;
  }

  private indexKey(): string {
    return `${this.keyPrefix}#live`;
  }
}

/** When the task may be dropped, in ms since the epoch. */
function expiresAt(record: TaskRecord): number {
  return Date.parse(record.createdAt) + (record.ttlMs ?? UNLIMITED_TTL_MS);
}
