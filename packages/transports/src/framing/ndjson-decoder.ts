/**
 * Newline-delimited JSON framing, inbound side: bytes in, JSON-RPC messages out.
 *
 * Linear time: bytes of an unfinished line are kept as a list of slices and joined once, when
 * the newline that ends the line arrives, so no byte is copied or scanned more than a constant
 * number of times however the line is chunked. Splitting on the byte 0x0A is safe for UTF-8,
 * which never uses that byte inside a multi-byte sequence, so a character split across chunks
 * is only decoded once its whole line is there.
 *
 * Runtime-neutral: `Uint8Array` and `TextDecoder` only.
 */
import {
  ErrorCode,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  parseMessage,
} from '@twofold/protocol/experimental';
import {
  type EnvelopePeek,
  isDecisive,
  PEEK_HEAD_BYTES,
  PEEK_TAIL_BYTES,
  peekEnvelope,
} from './envelope-peek';

/**
 * Default cap on the bytes of one message (its line, without the newline): 64 MiB.
 *
 * @experimental
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * Default number of characters of an invalid line kept in its error report: 200.
 *
 * @experimental
 */
export const DEFAULT_INVALID_LINE_PREVIEW_CHARS = 200;

/**
 * Options of {@link NdjsonDecoder}.
 *
 * @experimental
 */
export interface NdjsonDecoderOptions {
  /**
   * Largest accepted message in bytes, newline excluded (default {@link DEFAULT_MAX_MESSAGE_BYTES}).
   * A longer line is skipped up to its newline and reported once as `MESSAGE_TOO_LARGE`: as
   * soon as its first bytes tell what it is, else when it ends. Besides `maxMessageBytes`, the
   * error's details say what its first and last bytes tell: `kind` (`response`, `request`,
   * `notification` or `unknown`) and `id` when readable, so a client can fail the request that
   * was answered instead of letting it wait.
   */
  maxMessageBytes?: number;
  /**
   * How many characters of an invalid line its report keeps (default
   * {@link DEFAULT_INVALID_LINE_PREVIEW_CHARS}).
   */
  previewChars?: number;
}

/**
 * One outcome of framing: a valid JSON-RPC message, or a `LocalError` for input that was not
 * one. `INVALID_MESSAGE` errors carry `details.text` (the line, truncated), `details.reason`, and
 * `details.id` when the line was JSON whose request id could be read (the id to answer with),
 * `details.responseId` when it was a response whose id could be read (the request it fails);
 * `MESSAGE_TOO_LARGE` errors carry `details.maxMessageBytes` and what {@link peekEnvelope}
 * read of the line (`kind`, `id`).
 *
 * @experimental
 */
export type NdjsonFrame =
  | { ok: true; message: JsonRpcMessage }
  | { ok: false; error: LocalError; text?: string };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into newline-delimited JSON-RPC messages.
 *
 * Bytes that are not valid UTF-8 decode to U+FFFD (the WHATWG default, and what Node does):
 * inside a JSON string that keeps the message (one character replaced) rather than losing a
 * response; anywhere else it makes the line invalid JSON, which is reported. Empty lines are
 * skipped; a trailing `\r` is stripped.
 *
 * @experimental
 */
export class NdjsonDecoder {
  readonly maxMessageBytes: number;
  readonly previewChars: number;
  private readonly textDecoder = new TextDecoder('utf-8');
  /** Slices of the unfinished line, in order (copies: callers may reuse their chunks). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** True while skipping the rest of an oversized line. */
  private discarding = false;
  /** The skipped line's first bytes and, while it goes by, its last ones. */
  private skippedHead: Uint8Array | undefined;
  private skippedTail = new Uint8Array(0);
  /** Whether the skipped line has been reported (its first bytes were enough). */
  private skippedReported = false;

  constructor(options: NdjsonDecoderOptions = {}) {
    this.maxMessageBytes = positiveInteger(
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      'maxMessageBytes',
    );
    this.previewChars = positiveInteger(
      options.previewChars ?? DEFAULT_INVALID_LINE_PREVIEW_CHARS,
      'previewChars',
    );
  }

  /** Bytes held for the unfinished line. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds one chunk; returns the frames it completed, in order. */
  push(chunk: Uint8Array): NdjsonFrame[] {
    const frames: NdjsonFrame[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.keep(chunk, start, chunk.length, frames);
        return frames;
      }
      this.finishLine(chunk, start, newline, frames);
      start = newline + 1;
    }
  }

  /**
   * Ends the stream. An unfinished last line is still delivered when it is a complete message
   * (a peer that omits the final newline); otherwise it is reported as truncated.
   */
  end(): NdjsonFrame[] {
    const frames: NdjsonFrame[] = [];
    const truncated = this.pendingBytes > 0;
    if (this.discarding || !truncated) {
      // An oversized line cut off by the end: its last bytes are not the message's end.
      if (this.discarding && !this.skippedReported) frames.push(this.skippedFrame(false));
      this.reset();
      return frames;
    }
    const line = this.take(new Uint8Array(0), 0, 0);
    const frame = this.decodeLine(line, true);
    if (frame) frames.push(frame);
    return frames;
  }

  /** Drops any buffered partial line. */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
    this.skippedHead = undefined;
    this.skippedTail = new Uint8Array(0);
    this.skippedReported = false;
  }

  /** Buffers bytes `[from, to)` of a line whose newline has not arrived yet. */
  private keep(chunk: Uint8Array, from: number, to: number, frames: NdjsonFrame[]): void {
    if (from === to) return;
    if (this.discarding) {
      this.keepTail(chunk.subarray(from, to));
      return;
    }
    if (this.pendingBytes + (to - from) > this.maxMessageBytes) {
      this.startSkipping(chunk.subarray(from, to));
      // Report at once when the first bytes tell what the line is; else when it ends.
      const peek = this.peek(false);
      if (isDecisive(peek)) {
        frames.push({ ok: false, error: this.tooLarge(peek) });
        this.skippedReported = true;
      }
      return;
    }
    this.pending.push(chunk.slice(from, to));
    this.pendingBytes += to - from;
  }

  /** Handles the line that ends at `newline` (exclusive) in `chunk`. */
  private finishLine(chunk: Uint8Array, from: number, newline: number, frames: NdjsonFrame[]) {
    if (this.discarding) {
      // The oversized line ends here: report it if not yet, resynchronise on the next one.
      this.keepTail(chunk.subarray(from, newline));
      if (!this.skippedReported) frames.push(this.skippedFrame(true));
      this.reset();
      return;
    }
    if (this.pendingBytes + (newline - from) > this.maxMessageBytes) {
      this.startSkipping(chunk.subarray(from, newline));
      frames.push(this.skippedFrame(true));
      this.reset();
      return;
    }
    const frame = this.decodeLine(this.take(chunk, from, newline), false);
    if (frame) frames.push(frame);
  }

  /** The whole line: the buffered slices plus `chunk[from, to)`, joined once. */
  private take(chunk: Uint8Array, from: number, to: number): Uint8Array {
    const tail = chunk.subarray(from, to);
    if (this.pending.length === 0) return tail;
    const line = new Uint8Array(this.pendingBytes + tail.length);
    let offset = 0;
    for (const slice of this.pending) {
      line.set(slice, offset);
      offset += slice.length;
    }
    line.set(tail, offset);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }

  private decodeLine(bytes: Uint8Array, atEnd: boolean): NdjsonFrame | undefined {
    const length = bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (length === 0) return undefined;
    const text = this.textDecoder.decode(bytes.subarray(0, length));
    const decoded = parseMessage(text);
    if (decoded.ok) return { ok: true, message: decoded.message };
    const preview = text.length > this.previewChars ? `${text.slice(0, this.previewChars)}…` : text;
    // A last line that is whole JSON was not cut off: its own fault is the better reason.
    const reason =
      atEnd && decoded.error.code === ErrorCode.ParseError
        ? `stream ended inside a message (${length} bytes without a newline)`
        : decoded.error.message;
    // The id, when readable, lets a server answer the invalid request by name (as over HTTP);
    // a response's lets the client fail that request.
    const details: Record<string, unknown> = { text: preview, reason, bytes: length };
    if (decoded.id !== undefined) details.id = decoded.id;
    if (decoded.responseId !== undefined) details.responseId = decoded.responseId;
    const error = new LocalError(LocalErrorCode.InvalidMessage, `Invalid message: ${reason}`, {
      details,
    });
    return { ok: false, error, text: preview };
  }

  /** Starts skipping a line: keeps its first and last bytes (buffered ones, then `more`). */
  private startSkipping(more: Uint8Array): void {
    const head = new Uint8Array(Math.min(PEEK_HEAD_BYTES, this.pendingBytes + more.length));
    let offset = 0;
    for (const slice of [...this.pending, more]) {
      if (offset === head.length) break;
      const part = slice.subarray(0, head.length - offset);
      head.set(part, offset);
      offset += part.length;
    }
    this.skippedHead = head;
    this.skippedTail = new Uint8Array(0);
    for (const slice of this.pending) this.keepTail(slice);
    this.keepTail(more);
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = true;
  }

  /** Keeps the last bytes of the line being skipped. */
  private keepTail(bytes: Uint8Array): void {
    if (bytes.length >= PEEK_TAIL_BYTES) {
      this.skippedTail = bytes.slice(bytes.length - PEEK_TAIL_BYTES);
      return;
    }
    const keep = Math.min(this.skippedTail.length, PEEK_TAIL_BYTES - bytes.length);
    const tail = new Uint8Array(keep + bytes.length);
    tail.set(this.skippedTail.subarray(this.skippedTail.length - keep), 0);
    tail.set(bytes, keep);
    this.skippedTail = tail;
  }

  /** What the kept bytes say; the tail only counts once the line has really ended. */
  private peek(ended: boolean): EnvelopePeek {
    const head = this.textDecoder.decode(this.skippedHead ?? new Uint8Array(0));
    return peekEnvelope(head, ended ? this.textDecoder.decode(this.skippedTail) : undefined);
  }

  private skippedFrame(ended: boolean): NdjsonFrame {
    return { ok: false, error: this.tooLarge(this.peek(ended)) };
  }

  private tooLarge(peek: EnvelopePeek): LocalError {
    return new LocalError(
      LocalErrorCode.MessageTooLarge,
      `Message larger than ${this.maxMessageBytes} bytes skipped up to its newline`,
      { details: { maxMessageBytes: this.maxMessageBytes, ...peek } },
    );
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}
