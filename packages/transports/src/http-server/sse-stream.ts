/**
 * An outgoing SSE stream as a web `ReadableStream`: encodes events, sends keep-alive comments
 * while open, applies backpressure to writers, and tells its owner when the client goes away.
 */
import { type JsonRpcMessage, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { encodeSseComment, encodeSseEvent } from '../sse/writer';

/** Bytes queued for a slow client before writers wait for it to catch up. */
const HIGH_WATER_MARK_BYTES = 64 * 1024;

/** Options of {@link SseStream}. */
export interface SseStreamOptions {
  /** Interval of keep-alive comments; 0 or less disables them. */
  keepAliveIntervalMs: number;
  /** Called once when the reader cancels the stream (the client disconnected). */
  onCancel?: () => void;
  /**
   * A comment written as soon as the stream opens. Some servers (Bun) send no headers before
   * the first body byte, so a stream with nothing to say yet would look unanswered.
   */
  openingComment?: string;
}

/** Starts a timer that does not keep the process alive, where the runtime supports that. */
export function unrefTimer<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** One SSE response body being written. */
export class SseStream {
  /** The response body to hand to `new Response(...)`. */
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private readonly keepAlive: ReturnType<typeof setInterval> | undefined;
  private readonly drainWaiters: Array<() => void> = [];
  private state: 'open' | 'closed' | 'cancelled' = 'open';

  constructor(private readonly options: SseStreamOptions) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          const opening = options.openingComment;
          if (opening !== undefined) this.enqueue(encodeSseComment(opening));
        },
        pull: () => this.releaseWaiters(),
        cancel: () => {
          if (this.state !== 'open') return;
          this.finish('cancelled');
          this.options.onCancel?.();
        },
      },
      { highWaterMark: HIGH_WATER_MARK_BYTES, size: (chunk) => chunk.byteLength },
    );
    if (options.keepAliveIntervalMs > 0) {
      this.keepAlive = unrefTimer(
        setInterval(() => {
          // A client that is not reading does not need more keep-alives queued up.
          if ((this.controller.desiredSize ?? 0) > 0) this.enqueue(encodeSseComment());
        }, options.keepAliveIntervalMs),
      );
    }
  }

  /** Whether events can still be written. */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Writes one JSON-RPC message as a `message` event; resolves once the client has room. */
  writeMessage(message: JsonRpcMessage, eventId?: string): Promise<void> {
    return this.write(
      encodeSseEvent({ id: eventId, event: 'message', data: JSON.stringify(message) }),
    );
  }

  /** Writes raw SSE text (an encoded event or comment). */
  async write(text: string): Promise<void> {
    if (this.state !== 'open') {
      throw new LocalError(LocalErrorCode.ConnectionClosed, 'The SSE stream has closed');
    }
    this.enqueue(text);
    if ((this.controller.desiredSize ?? 0) > 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ends the stream after what was written (idempotent). */
  close(): void {
    if (this.state !== 'open') return;
    this.finish('closed');
    this.controller.close();
  }

  private enqueue(text: string): void {
    this.controller.enqueue(this.encoder.encode(text));
  }

  private finish(state: 'closed' | 'cancelled'): void {
    this.state = state;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.releaseWaiters();
  }

  private releaseWaiters(): void {
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}
