/**
 * The stdio server transport: serves newline-delimited JSON-RPC on this process's stdin/stdout
 * (or any pair of streams). Only framed messages are written to the output, so nothing else
 * may write there: log to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import type { JsonRpcMessage, TransportSendOptions } from '@twofold/protocol/experimental';
import { PendingAnswers } from './pending-answers';
import { type NdjsonStreamOptions, NdjsonStreamTransport } from './stream-transport';

/**
 * Default of `outputHighWaterMarkBytes`: 1 MiB of output waiting to be written.
 *
 * @experimental
 */
export const DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES = 1024 * 1024;

/**
 * Default of `inputEndGraceMs`: 10 s for what is in flight when the input ends.
 *
 * @experimental
 */
export const DEFAULT_INPUT_END_GRACE_MS = 10_000;

/**
 * Options of {@link StdioServerTransport}.
 *
 * @experimental
 */
export interface StdioServerTransportOptions extends NdjsonStreamOptions {
  /** Where messages come from (default `process.stdin`). */
  input?: Readable;
  /** Where messages go (default `process.stdout`). */
  output?: Writable;
  /**
   * On close, how long to wait for pending output to be written before giving up on it, in
   * milliseconds (default 2000): a peer that stopped reading cannot hold the close forever.
   */
  flushTimeoutMs?: number;
  /**
   * Backpressure: while more than this many bytes of output wait to be written (the peer is
   * not reading), input is not read either, until everything queued so far has been written
   * (default {@link DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES}). The peer sees its writes to our
   * input block (or `write()` return false) instead of our memory growing without bound. What
   * is already read is still answered, so the output may exceed the mark by the answers to
   * one input chunk.
   */
  outputHighWaterMarkBytes?: number;
  /**
   * When the input ends, how long requests still in flight may take to be answered before the
   * transport closes anyway, in milliseconds (default {@link DEFAULT_INPUT_END_GRACE_MS}). The
   * peer that closed our input but still reads our output gets those answers, then end of
   * file; a request still unanswered after the grace period gets none.
   */
  inputEndGraceMs?: number;
}

/**
 * Serves MCP over a pair of streams, by default the process's stdin and stdout.
 *
 * When the input ends (the client closed our stdin), its last line is delivered even without
 * a newline, `oninputend` runs, and the transport closes once every request it delivered has
 * been answered (or cancelled), or after `inputEndGraceMs`. It also closes when a stream fails
 * and on `close()`. Closing stops reading (a paused `process.stdin` lets the process exit) and
 * ends the output once everything sent has been written, so the peer sees end of file; the
 * process's own stdout is flushed but never ended. Input is not read while the output is over
 * `outputHighWaterMarkBytes`.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport({ maxMessageBytes: 1024 * 1024 });
 * transport.onmessage = (message) => {
 *   if ('method' in message && 'id' in message) {
 *     const error = { code: ErrorCode.MethodNotFound, message: `no ${message.method} here` };
 *     void transport.send(createErrorResponse(message.id, error));
 *   }
 * };
 * transport.onclose = () => console.error('client gone');
 * await transport.start();
 * ```
 * @experimental
 */
export class StdioServerTransport extends NdjsonStreamTransport {
  /**
   * Runs once when the input has ended and its last message was delivered, while sending is
   * still possible: a server can end long-lived requests (subscriptions) with their answer.
   */
  oninputend: (() => void) | undefined = undefined;

  private readonly source: Readable;
  private readonly sink: Writable;
  private readonly flushTimeoutMs: number;
  private readonly highWaterMark: number;
  private readonly graceMs: number;
  private readonly pending = new PendingAnswers();
  private inputHeld = false;
  private closing: Promise<void> | undefined;

  constructor(options: StdioServerTransportOptions = {}) {
    super(options);
    this.source = options.input ?? process.stdin;
    this.sink = options.output ?? process.stdout;
    this.flushTimeoutMs = options.flushTimeoutMs ?? 2000;
    this.highWaterMark = nonNegative(
      options.outputHighWaterMarkBytes ?? DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES,
      'outputHighWaterMarkBytes',
    );
    this.graceMs = nonNegative(
      options.inputEndGraceMs ?? DEFAULT_INPUT_END_GRACE_MS,
      'inputEndGraceMs',
    );
  }

  override send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    // The base class queues the message at once, so the queued length is current.
    const sending = super.send(message, options);
    this.pending.sent(message);
    this.holdInputWhileFull();
    return sending;
  }

  protected override delivered(message: JsonRpcMessage): void {
    this.pending.delivered(message);
  }

  async start(): Promise<void> {
    this.beginStart();
    const { source: input, sink: output } = this;
    const onInputError = (error: Error) => {
      this.report(error);
      void this.shutDown();
    };
    // A peer that stopped reading (EPIPE) cannot be answered any more: the channel is over.
    const onOutputError = (error: Error) => {
      this.report(error);
      void this.shutDown();
    };
    // A stream closes right after its end: that case waits for the answers (inputEnded).
    const onInputClose = () => {
      if (!input.readableEnded) void this.shutDown();
    };
    // Once the output is gone nothing in flight can be answered: do not wait for it.
    const onOutputClose = () => void this.shutDown();
    input.on('error', onInputError);
    input.on('close', onInputClose);
    output.on('error', onOutputError);
    output.on('close', onOutputClose);
    this.onFinish(() => {
      input.off('error', onInputError);
      input.off('close', onInputClose);
      output.off('error', onOutputError);
      output.off('close', onOutputClose);
      input.pause();
    });
    this.open(input, output, () => this.inputEnded());
  }

  async close(): Promise<void> {
    await this.shutDown();
  }

  /** Answers what is in flight (within the grace period), then closes. */
  private inputEnded(): void {
    if (this.isClosing) return;
    try {
      this.oninputend?.();
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
    const timer = setTimeout(() => void this.shutDown(), this.graceMs);
    this.onFinish(() => clearTimeout(timer));
    this.pending.whenIdle(() => {
      clearTimeout(timer);
      void this.shutDown();
    });
  }

  /**
   * Stops reading while the output holds more than the mark; reading resumes once everything
   * queued so far has been written (an empty write's callback runs after the bytes before it).
   */
  private holdInputWhileFull(): void {
    const output = this.sink;
    const queued = output.writableLength + this.batchedLength;
    if (this.inputHeld || this.isClosing || queued <= this.highWaterMark) return;
    if (output.destroyed || output.writableEnded) return;
    // What this tick queued goes to the stream first, so the empty write below follows it.
    this.flushBatch();
    this.inputHeld = true;
    this.source.pause();
    output.write('', () => {
      this.inputHeld = false;
      if (this.isClosing) return;
      // Answers queued after the mark may keep the output full: then hold on.
      this.holdInputWhileFull();
      if (!this.inputHeld) this.source.resume();
    });
  }

  private shutDown(): Promise<void> {
    this.closing ??= this.endOutput().then(() => this.finish());
    return this.closing;
  }

  /** Ends the output after pending writes (the process's stdout/stderr only get flushed). */
  private endOutput(): Promise<void> {
    this.flushBatch();
    this.beginClose();
    const output = this.sink;
    if (output.destroyed || output.writableFinished) return Promise.resolve();
    const isProcessStream = output === process.stdout || output === process.stderr;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        output.off('close', done);
        output.off('error', done);
        resolve();
      };
      const timer = setTimeout(() => {
        if (!isProcessStream) output.destroy();
        done();
      }, this.flushTimeoutMs);
      output.once('close', done);
      output.once('error', done);
      if (isProcessStream) output.write('', done);
      else output.end(done);
    });
  }
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number of at least 0, got ${value}`);
  }
  return value;
}
