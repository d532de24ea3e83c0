/**
 * The stdio server transport: serves newline-delimited JSON-RPC on this process's stdin/stdout
 * (or any pair of streams). Only framed messages are written to the output, so nothing else
 * may write there: log to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { type NdjsonStreamOptions, NdjsonStreamTransport } from './stream-transport';

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
}

/**
 * Serves MCP over a pair of streams, by default the process's stdin and stdout.
 *
 * The transport closes when its input ends (the client closed our stdin) or fails, or on
 * `close()`. Closing stops reading (a paused `process.stdin` lets the process exit) and ends
 * the output once everything sent has been written, so the peer sees end of file; the
 * process's own stdout is flushed but never ended.
 *
 * @experimental
 */
export class StdioServerTransport extends NdjsonStreamTransport {
  private readonly source: Readable;
  private readonly sink: Writable;
  private readonly flushTimeoutMs: number;
  private closing: Promise<void> | undefined;

  constructor(options: StdioServerTransportOptions = {}) {
    super(options);
    this.source = options.input ?? process.stdin;
    this.sink = options.output ?? process.stdout;
    this.flushTimeoutMs = options.flushTimeoutMs ?? 2000;
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
    const onInputClose = () => void this.shutDown();
    input.on('error', onInputError);
    input.on('close', onInputClose);
    output.on('error', onOutputError);
    this.onFinish(() => {
      input.off('error', onInputError);
      input.off('close', onInputClose);
      output.off('error', onOutputError);
      input.pause();
    });
    this.open(input, output, () => void this.shutDown());
  }

  async close(): Promise<void> {
    await this.shutDown();
  }

  private shutDown(): Promise<void> {
    this.closing ??= this.endOutput().then(() => this.finish());
    return this.closing;
  }

  /** Ends the output after pending writes (the process's stdout/stderr only get flushed). */
  private endOutput(): Promise<void> {
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
