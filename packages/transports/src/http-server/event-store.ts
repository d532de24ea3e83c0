/**
 * A bounded in-memory {@link EventStore}: enough for one process and for tests. Deployments
 * with several replicas need a shared store (the same interface over Redis or a database).
 */
import type { JsonRpcMessage } from '@twofold/protocol/experimental';
import type { EventStore } from './types';

/**
 * Options of {@link InMemoryEventStore}.
 *
 * @experimental
 */
export interface InMemoryEventStoreOptions {
  /** Events kept across all streams; the oldest are dropped beyond it. Default 10 000. */
  maxEvents?: number;
}

interface StoredEvent {
  readonly id: string;
  readonly streamId: string;
  /** Undefined for a priming event, which marks a position but carries nothing. */
  readonly message: JsonRpcMessage | undefined;
}

/**
 * Keeps the most recent events of every stream in memory, oldest dropped first. Event ids are
 * decimal sequence numbers, unique across streams.
 *
 * @experimental
 */
export class InMemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private nextId = 1;
  // Insertion order is age order, so the first entry is always the oldest event.
  private readonly events = new Map<string, StoredEvent>();
  private readonly streams = new Map<string, StoredEvent[]>();

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 10_000;
    if (!Number.isSafeInteger(this.maxEvents) || this.maxEvents < 1) {
      throw new RangeError(`maxEvents must be a positive integer: ${this.maxEvents}`);
    }
  }

  /** Events currently held, across all streams. */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    return this.add(streamId, message);
  }

  async storePrimingEvent(streamId: string): Promise<string> {
    return this.add(streamId, undefined);
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string | undefined> {
    const last = this.events.get(lastEventId);
    if (last === undefined) return undefined;
    const stream = this.streams.get(last.streamId) ?? [];
    // A snapshot: events stored while replaying are delivered live, not replayed.
    const after = stream.slice(stream.indexOf(last) + 1);
    for (const event of after) {
      if (event.message !== undefined) await send(event.id, event.message);
    }
    return last.streamId;
  }

  private add(streamId: string, message: JsonRpcMessage | undefined): string {
    const event: StoredEvent = { id: String(this.nextId++), streamId, message };
    this.events.set(event.id, event);
    let stream = this.streams.get(streamId);
    if (stream === undefined) {
      stream = [];
      this.streams.set(streamId, stream);
    }
    stream.push(event);
    if (this.events.size > this.maxEvents) this.evictOldest();
    return event.id;
  }

  private evictOldest(): void {
    const oldest = this.events.values().next().value;
    if (oldest === undefined) return;
    this.events.delete(oldest.id);
    const stream = this.streams.get(oldest.streamId);
    // The oldest event overall is also the oldest of its stream.
    stream?.shift();
    if (stream?.length === 0) this.streams.delete(oldest.streamId);
  }
}
