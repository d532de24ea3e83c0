/**
 * A `ChangeBus` on Redis pub/sub: every process publishing to one channel hears every other's
 * changes, so a `subscriptions/listen` (or a legacy session) on one instance hears a tool
 * registered on another.
 */
import type { Change, ChangeBus } from '@twofold/server/experimental';
import type { Redis } from 'ioredis';
import { asError, type RedisErrorHandler, reportOutages, warnProcess } from './reporting';

const DEFAULT_CHANNEL = 'twofold:changes';
const DEFAULT_MAX_QUEUED_CHANGES = 1_000;

/**
 * Options of {@link RedisChangeBus.connect}.
 *
 * @experimental
 */
export interface RedisChangeBusOptions {
  /** The pub/sub channel every process of one deployment shares. Default `twofold:changes`. */
  channel?: string;
  /**
   * Distinct changes held for other processes while Redis is unreachable or slow; equal changes
   * wait as one. Beyond it the oldest is dropped (and reported): listeners elsewhere miss that
   * hint, while listeners of this process always hear it. Default 1,000.
   */
  maxQueuedChanges?: number;
  /** Failures the bus handled itself (default: a process warning). */
  onError?: RedisErrorHandler;
}

/** What travels on the channel: the change and the process that made it. */
interface Envelope {
  from: string;
  change: Change;
}

const LIST_KINDS = new Set(['tools', 'prompts', 'resources']);

function isChange(value: unknown): value is Change {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, uri } = value as { kind?: unknown; uri?: unknown };
  if (kind === 'resource-updated') return typeof uri === 'string';
  return typeof kind === 'string' && LIST_KINDS.has(kind);
}

/**
 * A `ChangeBus` shared through Redis pub/sub. `publish` delivers to this process's listeners at
 * once and sends the change to the others in the background: it never throws, and while Redis
 * is away it holds at most `maxQueuedChanges` distinct changes, sent when Redis is back. The
 * subscription is renewed after a reconnect (ioredis `autoResubscribe`), and listeners live in
 * this process, so none is lost when Redis restarts. Uses two connections of its own, duplicated
 * from the client you pass (which stays yours to close).
 *
 * @example
 * ```ts
 * const redis = new Redis('redis://127.0.0.1:6379');
 * const bus = await RedisChangeBus.connect(redis);
 * const server = new McpServer({ name: 'replica', version: '1.0.0', listen: { bus } });
 * ```
 *
 * @experimental
 */
export class RedisChangeBus implements ChangeBus {
  private readonly listeners = new Set<(change: Change) => void>();
  /** Serialized changes not yet sent, oldest first; a Set so equal changes wait as one. */
  private readonly queued = new Set<string>();
  private readonly id = crypto.randomUUID();
  private readonly channel: string;
  private readonly maxQueuedChanges: number;
  private readonly report: RedisErrorHandler;
  private flushing = false;
  private droppedSinceReport = 0;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    options: RedisChangeBusOptions,
  ) {
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    this.maxQueuedChanges = options.maxQueuedChanges ?? DEFAULT_MAX_QUEUED_CHANGES;
    if (!Number.isSafeInteger(this.maxQueuedChanges) || this.maxQueuedChanges < 1) {
      throw new RangeError(
        `maxQueuedChanges must be a whole number >= 1: ${this.maxQueuedChanges}`,
      );
    }
    this.report = options.onError ?? warnProcess;
  }

  /** Opens the bus's connections and subscribes to its channel before resolving. */
  static async connect(
    client: Redis,
    options: RedisChangeBusOptions = {},
  ): Promise<RedisChangeBus> {
    // Without an offline queue a publish while Redis is away fails at once: the bus's own
    // bounded queue holds it instead of ioredis's unbounded one.
    const publisher = client.duplicate({ enableOfflineQueue: false, lazyConnect: true });
    const subscriber = client.duplicate({ autoResubscribe: true, lazyConnect: true });
    // `this`, not the class name: a class body naming its class is renamed by the bundler.
    const bus = new this(publisher, subscriber, options);
    reportOutages(publisher, 'Redis change bus publisher', bus.report);
    reportOutages(subscriber, 'Redis change bus subscriber', bus.report);
    publisher.on('ready', () => bus.flush());
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === bus.channel) bus.receive(message);
    });
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(bus.channel);
    } catch (error) {
      publisher.disconnect();
      subscriber.disconnect();
      throw error;
    }
    return bus;
  }

  /** Listeners subscribed in this process. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Changes waiting for Redis (at most `maxQueuedChanges`). */
  get queuedCount(): number {
    return this.queued.size;
  }

  publish(change: Change): void {
    this.deliver(change);
    this.enqueue(JSON.stringify({ from: this.id, change } satisfies Envelope));
    this.flush();
  }

  subscribe(listener: (change: Change) => void): () => void {
    // A wrapper per call, so subscribing the same function twice gives two subscriptions.
    const entry = (change: Change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Closes the bus's own connections; changes still queued are not sent. */
  async close(): Promise<void> {
    this.listeners.clear();
    this.queued.clear();
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }

  private deliver(change: Change): void {
    // A copy, so a listener that unsubscribes does not disturb the iteration.
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.report(asError(error));
      }
    }
  }

  private enqueue(message: string): void {
    this.queued.delete(message);
    this.queued.add(message);
    if (this.queued.size <= this.maxQueuedChanges) return;
    const oldest = this.queued.values().next().value;
    if (oldest !== undefined) this.queued.delete(oldest);
    // One report per outage, not one per dropped change.
    if (this.droppedSinceReport++ === 0) {
      this.report(
        new Error(
          `Redis change bus: more than ${this.maxQueuedChanges} changes waiting for Redis; dropping the oldest`,
        ),
      );
    }
  }

  /** Sends queued changes, one at a time, while the publisher is ready. */
  private flush(): void {
    if (this.flushing || this.publisher.status !== 'ready') return;
    this.flushing = true;
    void this.drain().finally(() => {
      this.flushing = false;
    });
  }

  private async drain(): Promise<void> {
    for (let next = this.first(); next !== undefined; next = this.first()) {
      // Taken out before sending: an equal change published meanwhile is queued (and sent) again.
      this.queued.delete(next);
      try {
        await this.publisher.publish(this.channel, next);
        this.droppedSinceReport = 0;
      } catch {
        // Redis went away: keep it for the next 'ready' (the connection watcher reports).
        if (!this.queued.has(next)) this.enqueue(next);
        return;
      }
    }
  }

  private first(): string | undefined {
    return this.queued.values().next().value;
  }

  private receive(message: string): void {
    let envelope: Partial<Envelope>;
    try {
      envelope = JSON.parse(message) as Partial<Envelope>;
    } catch {
      this.report(new Error(`Redis change bus: a message on ${this.channel} is not JSON`));
      return;
    }
    // This process's own changes were delivered when published.
    if (envelope.from === this.id) return;
    if (!isChange(envelope.change)) {
      this.report(new Error(`Redis change bus: a message on ${this.channel} is not a change`));
      return;
    }
    this.deliver(envelope.change);
  }
}
