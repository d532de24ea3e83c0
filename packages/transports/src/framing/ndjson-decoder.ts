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
   * A longer line is skipped up to its newline and reported once as `MESSAGE_TOO_LARGE`.
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
 * `details.id` when the line was JSON whose request id could be read (the id to answer with);
 * `MESSAGE_TOO_LARGE` errors carry `details.maxMessageBytes`.
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
  /** True while skipping the rest of an oversized line (already reported). */
  private discarding = false;

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
  }

  /** Buffers bytes `[from, to)` of a line whose newline has not arrived yet. */
  private keep(chunk: Uint8Array, from: number, to: number, frames: NdjsonFrame[]): void {
    if (from === to || this.discarding) return;
    if (this.pendingBytes + (to - from) > this.maxMessageBytes) {
      frames.push({ ok: false, error: this.tooLarge() });
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    this.pending.push(chunk.slice(from, to));
    this.pendingBytes += to - from;
  }

  /** Handles the line that ends at `newline` (exclusive) in `chunk`. */
  private finishLine(chunk: Uint8Array, from: number, newline: number, frames: NdjsonFrame[]) {
    if (this.discarding) {
      // The oversized line ends here: resynchronise on the next one.
      this.discarding = false;
      return;
    }
    if (this.pendingBytes + (newline - from) > this.maxMessageBytes) {
      frames.push({ ok: false, error: this.tooLarge() });
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
    // The id, when readable, lets a server answer the invalid request by name (as over HTTP).
    const details =
      decoded.id === undefined
        ? { text: preview, reason, bytes: length }
        : { text: preview, reason, bytes: length, id: decoded.id };
    const error = new LocalError(LocalErrorCode.InvalidMessage, `Invalid message: ${reason}`, {
      details,
    });
    return { ok: false, error, text: preview };
  }

  private tooLarge(): LocalError {
    return new LocalError(
      LocalErrorCode.MessageTooLarge,
      `Message larger than ${this.maxMessageBytes} bytes skipped up to its newline`,
      { details: { maxMessageBytes: this.maxMessageBytes } },
    );
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}
