/**
 * What the stdio client and server transports share: newline-delimited JSON over a Node
 * `Readable` and `Writable`, the transport state machine, and the delivery rules of the
 * `Transport` contract (ordered delivery of valid messages only, bad input reported and never
 * fatal, nothing delivered after close, `onclose` exactly once).
 */
import type { Readable, Writable } from 'node:stream';
import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type MessageContext,
  type Transport,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';
import { encodeNdjsonLine, NdjsonDecoder, type NdjsonFrame } from '../framing/index';
import { connectionClosed, LineWriter, sendAborted } from './write-line';

/**
 * Receives a line that was not a JSON-RPC message: its text (truncated) and the error that
 * says why. The same error also goes to `onerror`.
 *
 * @experimental
 */
export type InvalidLineHandler = (text: string, error: LocalError) => void;

/**
 * Options both stdio transports take.
 *
 * @experimental
 */
export interface NdjsonStreamOptions {
  /** Largest accepted inbound message in bytes (default 64 MiB); see `NdjsonDecoder`. */
  maxMessageBytes?: number;
  /** Called for each inbound line that is not a JSON-RPC message (banners, logs, garbage). */
  onInvalidLine?: InvalidLineHandler;
}

type State = 'idle' | 'starting' | 'open' | 'closing' | 'closed';

/** Messages written together; `written` settles as that write does. */
interface Batch {
  text: string;
  /** Messages in `text`. */
  count: number;
  readonly written: Promise<void>;
  readonly settle: (written: Promise<void>) => void;
}

/** A batch this long is written at once, however few messages it holds. */
const MAX_BATCH_CHARS = 64 * 1024;

/**
 * `written`, or REQUEST_ABORTED once `signal` fires first (the bytes are queued by then and may
 * still go out: a stream cannot take a write back).
 */
function untilWrittenOrAborted(written: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(sendAborted(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    written.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Base of the stdio transports. Subclasses open the streams in `start()` and call `finish()`
 * exactly when the channel is gone.
 *
 * @experimental
 */
export abstract class NdjsonStreamTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private state: State = 'idle';
  private writer: LineWriter | undefined;
  private batch: Batch | undefined;
  /** How many messages the current batch holds before it is written; 1 at each tick's start. */
  private batchLimit = 1;
  private tickEndScheduled = false;
  private readonly decoder: NdjsonDecoder;
  private readonly onInvalidLine: InvalidLineHandler | undefined;
  private readonly detachers: (() => void)[] = [];
  private resolveClosed!: () => void;
  /** Settles after `onclose` has run. */
  protected readonly closed = new Promise<void>((resolve) => {
    this.resolveClosed = resolve;
  });

  protected constructor(options: NdjsonStreamOptions) {
    this.decoder = new NdjsonDecoder({ maxMessageBytes: options.maxMessageBytes });
    this.onInvalidLine = options.onInvalidLine;
  }

  abstract start(): Promise<void>;
  abstract close(): Promise<void>;

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.state === 'idle' || this.state === 'starting') {
      return Promise.reject(
        new LocalError(LocalErrorCode.NotConnected, 'The stdio transport is not started'),
      );
    }
    if (this.state !== 'open' || this.writer === undefined) {
      return Promise.reject(connectionClosed());
    }
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(sendAborted(signal));
    let line: string;
    try {
      line = encodeNdjsonLine(message);
    } catch (error) {
      return Promise.reject(error);
    }
    const batch = this.batch ?? this.openBatch();
    batch.text += line;
    batch.count++;
    if (batch.count >= this.batchLimit || batch.text.length >= MAX_BATCH_CHARS) {
      this.batchLimit *= 2;
      this.flushBatch();
    }
    return signal === undefined ? batch.written : untilWrittenOrAborted(batch.written, signal);
  }

  /**
   * The messages of one tick leave in writes of growing size: the first message at once, then
   * 2, 4, 8, ... together, and what is left at the end of the tick. An idle peer starts on the
   * first answers while this side still works on the rest, and a burst of n messages still
   * costs about log2(n) system calls. One write per tick made the two sides take turns instead:
   * each waited for the other's whole burst (at 64 calls in flight, half the calls per second).
   */
  private openBatch(): Batch {
    let settle!: (written: Promise<void>) => void;
    const written = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const batch: Batch = { text: '', count: 0, written, settle };
    this.batch = batch;
    if (!this.tickEndScheduled) {
      this.tickEndScheduled = true;
      process.nextTick(() => {
        this.tickEndScheduled = false;
        this.batchLimit = 1;
        this.flushBatch();
      });
    }
    return batch;
  }

  /** Characters this tick has queued that the stream has not been given yet. */
  protected get batchedLength(): number {
    return this.batch?.text.length ?? 0;
  }

  /** Hands the tick's messages to the stream now; subclasses call it before ending the stream. */
  protected flushBatch(): void {
    const batch = this.batch;
    if (batch === undefined || this.writer === undefined) return;
    this.batch = undefined;
    batch.settle(this.writer.write(batch.text));
  }

  /** Whether `close()` was called or the channel is gone. */
  protected get isClosing(): boolean {
    return this.state === 'closing' || this.state === 'closed';
  }

  /** Claims the one `start()`; a second call is a programming error and rejects. */
  protected beginStart(): void {
    if (this.state !== 'idle') throw new Error('start() may be called only once per transport');
    this.state = 'starting';
  }

  /**
   * Starts reading `input` and writing to `output`. `onInputEnd` runs once the input has ended
   * and its last line has been delivered.
   */
  protected open(input: Readable, output: Writable, onInputEnd: () => void): void {
    this.writer = new LineWriter(output);
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      for (const frame of this.decoder.push(bytes)) this.deliver(frame);
    };
    const onEnd = () => {
      for (const frame of this.decoder.end()) this.deliver(frame);
      onInputEnd();
    };
    input.on('data', onData);
    input.once('end', onEnd);
    this.detachers.push(() => {
      input.off('data', onData);
      input.off('end', onEnd);
    });
    if (this.state === 'starting') this.state = 'open';
  }

  /** Sees each message just before `onmessage` does (the server tracks what awaits an answer). */
  protected delivered(_message: JsonRpcMessage): void {}

  /** Registers cleanup that `finish()` runs (listener removal, stream teardown). */
  protected onFinish(detach: () => void): void {
    this.detachers.push(detach);
  }

  /** Marks `close()` as called: nothing more is delivered or sent. */
  protected beginClose(): void {
    if (this.state !== 'closed') this.state = 'closing';
  }

  /** Reports an error that does not close the channel (while the channel is still live). */
  protected report(error: Error): void {
    if (this.state !== 'closed') this.onerror?.(error);
  }

  /**
   * Ends the channel once: runs the cleanups, reports `error` (if any), then `onclose`.
   * Later calls do nothing.
   */
  protected finish(error?: Error): void {
    if (this.state === 'closed') return;
    if (error) this.onerror?.(error);
    this.state = 'closed';
    for (const detach of this.detachers.splice(0)) detach();
    this.decoder.reset();
    try {
      this.onclose?.();
    } finally {
      this.resolveClosed();
    }
  }

  private deliver(frame: NdjsonFrame): void {
    if (this.state !== 'open') return;
    if (frame.ok) {
      this.delivered(frame.message);
      try {
        this.onmessage?.(frame.message);
      } catch (error) {
        // A throwing handler must not cost the other messages of this chunk their delivery.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      return;
    }
    if (frame.text !== undefined) this.onInvalidLine?.(frame.text, frame.error);
    this.onerror?.(frame.error);
  }
}
