/**
 * The legacy resumability `EventStore` on Redis streams: a client whose SSE stream dropped can
 * resume it (`Last-Event-ID`) on any replica that serves its session.
 */
import type { JsonRpcMessage } from '@twofold/protocol/experimental';
import type { EventStore } from '@twofold/transports/http-server';
import type { Redis } from 'ioredis';
import { asError, type RedisErrorHandler, warnProcess } from './reporting';

/**
 * Options of {@link RedisEventStore}: how much of each stream Redis keeps.
 *
 * @experimental
 */
export interface RedisEventStoreOptions {
  /** Prefix of the store's keys (one Redis stream per SSE stream). Default `twofold:events:`. */
  keyPrefix?: string;
  /** Events kept per SSE stream; older ones are trimmed. Default 1,000. */
  maxEventsPerStream?: number;
  /**
   * How long a stream is kept after its last event (the legacy session idle timeout is a good
   * choice). Default 30 minutes.
   */
  retentionMs?: number;
  /** Failures the store handled itself, such as an unreadable event (default: a process warning). */
  onError?: RedisErrorHandler;
}

/** The event id names its SSE stream and its Redis stream entry: `<streamId>.<entryId>`. */
function parseEventId(eventId: string): { streamId: string; entryId: string } | undefined {
  const dot = eventId.lastIndexOf('.');
  if (dot <= 0 || !/^\d+-\d+$/.test(eventId.slice(dot + 1))) return undefined;
  return { streamId: eventId.slice(0, dot), entryId: eventId.slice(dot + 1) };
}

/** Field of an entry that carries a message; a priming entry has `PRIMING` instead. */
const MESSAGE = 'm';
const PRIMING = 'p';

/**
 * Keeps each SSE stream's events in a Redis stream (`XADD`, trimmed to `maxEventsPerStream`,
 * expiring `retentionMs` after its last event). Event ids are `<streamId>.<entryId>`: unique
 * per session, since stream ids are random UUIDs, and resolvable by any replica. A failure to
 * store rejects, as the `EventStore` contract has it (the session reports it).
 *
 * @example
 * ```ts
 * const eventStore = new RedisEventStore(redis, { retentionMs: 30 * 60_000 });
 * await serveHttp(server, { port: 3000, legacy: { eventStore } });
 * ```
 *
 * @experimental
 */
export class RedisEventStore implements EventStore {
  private readonly keyPrefix: string;
  private readonly maxEventsPerStream: number;
  private readonly retentionMs: number;
  private readonly report: RedisErrorHandler;

  constructor(
    private readonly redis: Redis,
    options: RedisEventStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'twofold:events:';
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1_000;
    this.retentionMs = options.retentionMs ?? 30 * 60_000;
    for (const [name, value] of [
      ['maxEventsPerStream', this.maxEventsPerStream],
      ['retentionMs', this.retentionMs],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number >= 1: ${value}`);
      }
    }
    this.report = options.onError ?? warnProcess;
  }

  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    return this.add(streamId, MESSAGE, JSON.stringify(message));
  }

  storePrimingEvent(streamId: string): Promise<string> {
    return this.add(streamId, PRIMING, '');
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string | undefined> {
    const parsed = parseEventId(lastEventId);
    if (parsed === undefined) return undefined;
    // One read from the last event on: a snapshot (events stored while replaying go out live),
    // and the last event must still be there, or what followed it may be gone too.
    const entries = await this.redis.xrange(this.keyPrefix + parsed.streamId, parsed.entryId, '+');
    if (entries[0]?.[0] !== parsed.entryId) return undefined;
    for (const [entryId, fields] of entries.slice(1)) {
      if (fields[0] !== MESSAGE || fields[1] === undefined) continue;
      let message: JsonRpcMessage;
      try {
        message = JSON.parse(fields[1]) as JsonRpcMessage;
      } catch (error) {
        this.report(asError(error));
        continue;
      }
      await send(`${parsed.streamId}.${entryId}`, message);
    }
    return parsed.streamId;
  }

  private async add(streamId: string, field: string, value: string): Promise<string> {
    const key = this.keyPrefix + streamId;
    const results = await this.redis
      .multi()
      .xadd(key, 'MAXLEN', this.maxEventsPerStream, '*', field, value)
      .pexpire(key, this.retentionMs)
      .exec();
    const [error, entryId] = results?.[0] ?? [new Error('Redis discarded the transaction')];
    if (error) throw error;
    return `${streamId}.${String(entryId)}`;
  }
}
