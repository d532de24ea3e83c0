/**
 * A `TaskStore` on Redis: a task created by one replica is served, updated and cancelled by any
 * other. Each task is one JSON string key that expires with the task's `ttlMs`; a sorted set of
 * task ids scored by expiry counts the live ones for the store's limit. Every update is
 * published on a channel, so each replica hears the others' (a cancellation, a new status).
 */
import { type TaskRecord, type TaskStore, TaskStoreFullError } from '@twofold/server/experimental';
import type { Redis } from 'ioredis';
import { asError, type RedisErrorHandler, reportOutages, warnProcess } from './reporting';

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
  /** The channel updates are published on. Default: the key prefix followed by `updates`. */
  channel?: string;
  /** Receives failures of the update subscription. Default: a process warning. */
  onError?: RedisErrorHandler;
}

/** What the update channel carries: the writer, so that it skips its own updates. */
interface UpdateEnvelope {
  from: string;
  record: TaskRecord;
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

// KEYS: task key. ARGV: record JSON, channel, envelope JSON. Writes and publishes unless the
// stored task is gone or terminal.
const UPDATE = `
local stored = redis.call('GET', KEYS[1])
if not stored then return 0 end
local status = cjson.decode(stored).status
if status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
redis.call('PUBLISH', ARGV[2], ARGV[3])
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
  private readonly channel: string;
  private readonly report: RedisErrorHandler;
  private readonly id = crypto.randomUUID();
  private readonly watchers = new Set<(record: TaskRecord) => void>();
  /** The connection that hears other replicas' updates, opened by the first `watch`. */
  private subscriber: Redis | undefined;

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
    this.channel = options.channel ?? `${this.keyPrefix}updates`;
    this.report = options.onError ?? warnProcess;
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
    const json = JSON.stringify(record);
    const envelope = `{"from":${JSON.stringify(this.id)},"record":${json}}`;
    const written = await this.redis.eval(
      UPDATE,
      1,
      this.key(record.taskId),
      json,
      this.channel,
      envelope,
    );
    return written === 1;
  }

  /**
   * Hears the updates other processes make (this store's own are left out). The first call
   * opens a subscriber connection of its own, which resubscribes after a Redis restart;
   * updates made while Redis is away are not heard, `tasks/get` still shows them.
   */
  watch(listener: (record: TaskRecord) => void): () => void {
    const entry = (record: TaskRecord) => listener(record);
    this.watchers.add(entry);
    this.subscriber ??= this.subscribe();
    return () => {
      this.watchers.delete(entry);
    };
  }

  /** Closes the subscriber connection, if `watch` opened one; the given client stays open. */
  async close(): Promise<void> {
    this.watchers.clear();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => undefined);
  }

  private subscribe(): Redis {
    const subscriber = this.redis.duplicate({ autoResubscribe: true });
    reportOutages(subscriber, 'Redis task store subscriber', this.report);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    subscriber.subscribe(this.channel).catch((error: unknown) => this.report(asError(error)));
    return subscriber;
  }

  private receive(message: string): void {
    let envelope: Partial<UpdateEnvelope>;
    try {
      envelope = JSON.parse(message) as Partial<UpdateEnvelope>;
    } catch {
      this.report(new Error(`Redis task store: a message on ${this.channel} is not JSON`));
      return;
    }
    const { from, record } = envelope;
    if (from === this.id || typeof record?.taskId !== 'string') return;
    for (const watcher of [...this.watchers]) {
      try {
        watcher(record);
      } catch (error) {
        this.report(asError(error));
      }
    }
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
