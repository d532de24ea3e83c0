/**
 * The stream of one pending legacy request: its POST exchange while the client holds it, and,
 * with an event store, what is sent after the client dropped it (kept for a resuming GET).
 */
import {
  type JsonRpcMessage,
  type JsonRpcResponse,
  LocalError,
  LocalErrorCode,
  type RequestId,
} from '@twofold/protocol/experimental';
import type { PostExchange } from '../exchange';
import type { Answer } from '../responses';
import { SerialQueue } from '../serial';
import type { SseStream } from '../sse-stream';
import type { EventStore } from '../types';

interface HeldMessage {
  readonly message: JsonRpcMessage;
  readonly eventId: string | undefined;
}

/** Routes the messages about one legacy request to whichever connection carries them. */
export class RequestStream {
  private resumed: SseStream | undefined;
  private readonly serial = new SerialQueue();
  // While a replay is running, messages sent with no open connection are held here so the
  // resuming stream gets them after the replay (the store's snapshot does not include them).
  private holds = 0;
  private held: HeldMessage[] = [];

  constructor(
    readonly requestId: RequestId,
    readonly streamId: string,
    readonly exchange: PostExchange,
    private readonly store: EventStore | undefined,
  ) {}

  /** Sends a message about the request; `final` for its response, which ends the stream. */
  send(message: JsonRpcMessage, final: boolean): Promise<void> {
    return this.serial.run(async () => {
      const eventId = await this.store?.storeEvent(this.streamId, message);
      if (!this.exchange.ended) {
        try {
          if (final) await this.exchange.respond(message as JsonRpcResponse, { eventId });
          else await this.exchange.send(message, eventId);
          return;
        } catch (error) {
          // The client left while this was being written; the store still has the message.
          if (this.store === undefined || !this.exchange.ended) throw error;
        }
      }
      if (this.store === undefined) {
        throw new LocalError(
          LocalErrorCode.ConnectionClosed,
          `The client closed the stream of request ${JSON.stringify(this.requestId)}`,
        );
      }
      if (this.resumed?.isOpen === true) {
        await this.resumed.writeMessage(message, eventId).catch(() => undefined);
      } else if (this.holds > 0) {
        this.held.push({ message, eventId });
      }
      if (final) this.resumed?.close();
    });
  }

  /** Starts holding detached messages for the duration of a replay. */
  hold(): void {
    this.holds++;
  }

  /** Ends one hold; the held messages are dropped when no replay needs them any more. */
  release(): void {
    this.holds--;
    if (this.holds === 0) this.held = [];
  }

  /** Continues the stream on a resumed GET, after the events the replay already sent. */
  attachResumed(sink: SseStream, replayed: ReadonlySet<string>): Promise<void> {
    return this.serial.run(async () => {
      this.resumed?.close();
      this.resumed = sink;
      for (const { message, eventId } of this.held) {
        if (eventId !== undefined && replayed.has(eventId)) continue;
        await sink.writeMessage(message, eventId).catch(() => undefined);
      }
      this.held = [];
    });
  }

  /** Ends the request's connections; `fallback` answers a POST still waiting for JSON. */
  close(fallback: () => Answer): void {
    this.exchange.abort(fallback);
    this.resumed?.close();
  }
}
