/**
 * The GET stream of a legacy session: where messages unrelated to any request go. Messages
 * sent while no GET stream is open wait in a bounded queue.
 */
import { type JsonRpcMessage, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { encodeSseEvent } from '../../sse/writer';
import { SerialQueue } from '../serial';
import type { SseStream } from '../sse-stream';
import type { EventStore } from '../types';

interface QueuedMessage {
  readonly message: JsonRpcMessage;
  readonly eventId: string | undefined;
}

/** The session's one stream for unrelated messages, with its queue. */
export class StandaloneStream {
  /** Names this stream in the event store. */
  readonly streamId = crypto.randomUUID();
  private sink: SseStream | undefined;
  private queue: QueuedMessage[] = [];
  private readonly serial = new SerialQueue();

  constructor(
    private readonly store: EventStore | undefined,
    private readonly maxQueued: number,
  ) {}

  /** Whether a client is connected to it. */
  get isOpen(): boolean {
    return this.sink?.isOpen === true;
  }

  /** Writes `message` to the open GET stream, or queues it until one opens. */
  send(message: JsonRpcMessage): Promise<void> {
    return this.serial.run(async () => {
      if (!this.isOpen && this.queue.length >= this.maxQueued) {
        throw new LocalError(
          LocalErrorCode.LimitExceeded,
          `No GET stream is open and ${this.maxQueued} messages are already queued`,
          { details: { maxQueuedMessages: this.maxQueued } },
        );
      }
      const eventId = await this.store?.storeEvent(this.streamId, message);
      await this.deliver({ message, eventId });
    });
  }

  /**
   * Connects a client's SSE stream (replacing any earlier one): writes the priming event, if
   * any, then flushes the queue, skipping events the client already got through a replay.
   */
  attach(
    sink: SseStream,
    options: { replayed?: ReadonlySet<string>; primingId?: () => Promise<string | undefined> },
  ): Promise<void> {
    if (this.sink !== sink) this.sink?.close();
    this.sink = sink;
    return this.serial.run(async () => {
      const primingId = await options.primingId?.();
      if (primingId !== undefined) await sink.write(encodeSseEvent({ id: primingId, data: '' }));
      const queued = this.queue;
      this.queue = [];
      for (const item of queued) {
        if (item.eventId === undefined || options.replayed?.has(item.eventId) !== true) {
          await this.deliver(item);
        }
      }
    });
  }

  /** Ends the GET stream and drops what is queued. */
  close(): void {
    this.sink?.close();
    this.queue = [];
  }

  private async deliver(item: QueuedMessage): Promise<void> {
    if (this.sink?.isOpen === true) {
      try {
        await this.sink.writeMessage(item.message, item.eventId);
        return;
      } catch {
        // The client went away between the check and the write: keep the message for the next one.
      }
    }
    this.queue.push(item);
  }
}
