/**
 * An incremental `text/event-stream` parser following the event stream interpretation of the
 * WHATWG HTML standard. Runtime-neutral (TextDecoder only). Linear in its input: each chunk is
 * scanned once, and a line split over many chunks is joined once, when it ends.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/**
 * One dispatched server-sent event.
 *
 * @experimental
 */
export interface SseEvent {
  /** The `event:` field, or `message` when the event named none. */
  type: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The stream's last event id when this event was dispatched (`''` when none was set). */
  lastEventId: string;
}

/**
 * Callbacks of {@link SseParser}.
 *
 * @experimental
 */
export interface SseParserHandlers {
  /** Receives each dispatched event, in stream order. */
  onEvent: (event: SseEvent) => void;
  /** Receives each valid `retry:` value (milliseconds). */
  onRetry?: (milliseconds: number) => void;
  /** Receives each comment line's text after the `:` (keep-alives). */
  onComment?: (text: string) => void;
  /** An event grew past `maxEventBytes`: it is dropped up to its blank line and reported here. */
  onOversized?: (error: LocalError) => void;
}

/**
 * Options of {@link SseParser}.
 *
 * @experimental
 */
export interface SseParserOptions {
  /**
   * Largest event accepted, counted in UTF-8 bytes of its lines without line endings (comment
   * lines excluded). Default 64 MiB.
   */
  maxEventBytes?: number;
  /** The last event id to start from, when resuming a stream. Default `''`. */
  lastEventId?: string;
}

/**
 * How a stream ended.
 *
 * @experimental
 */
export interface SseEndState {
  /**
   * The stream stopped inside an event: an unterminated line, or `data:` lines not yet followed
   * by the blank line that dispatches them. Such an event is not dispatched (as the standard
   * says); this flag makes the loss visible.
   */
  truncated: boolean;
}

const DEFAULT_MAX_EVENT_BYTES = 64 * 1024 * 1024;
const LINE_END = /[\r\n]/g;
const DIGITS = /^[0-9]+$/;

/**
 * UTF-8 length of a string, without encoding it. Each surrogate counts 2 bytes, so a pair is
 * its 4 even when a chunk boundary splits it (a lone one, sent as U+FFFD, counts a byte less).
 */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}

/**
 * Parses a server-sent event stream fed in chunks split anywhere (inside a line, a CRLF pair or
 * a UTF-8 sequence). Feed either bytes or strings for one stream, not both. Handles CRLF, CR and
 * LF line endings, a leading BOM, comments, multi-line data, `id` (ignored when it contains NUL)
 * and `retry` (digits only). Call {@link SseParser.end} when the stream ends.
 *
 * @experimental
 */
export class SseParser {
  private readonly maxEventBytes: number;
  private decoder: InstanceType<typeof TextDecoder> | undefined;
  private atStreamStart = true;
  /** The previous chunk ended with CR: a leading LF in the next one belongs to it. */
  private afterCr = false;
  private lineParts: string[] = [];
  private lineChars = 0;
  private lineBytes = 0;
  private eventBytes = 0;
  /** Dropping an oversized event until its blank line. */
  private dropping = false;
  private data: string[] = [];
  private eventType = '';
  private id: string;

  constructor(
    private readonly handlers: SseParserHandlers,
    options: SseParserOptions = {},
  ) {
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.id = options.lastEventId ?? '';
  }

  /** The last event id seen (set by `id:` lines, also of events that were never dispatched). */
  get lastEventId(): string {
    return this.id;
  }

  /** Parses the next chunk, dispatching every event it completes. */
  feed(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') this.scan(chunk);
    else {
      // ignoreBOM keeps the BOM in the text, so both input kinds strip it in one place.
      this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      this.scan(this.decoder.decode(chunk, { stream: true }));
    }
  }

  /** Ends the stream; an event still open is discarded and reported as truncation. */
  end(): SseEndState {
    if (this.decoder !== undefined) this.scan(this.decoder.decode());
    const truncated = this.lineChars > 0 || this.data.length > 0 || this.dropping;
    this.lineParts = [];
    this.lineChars = 0;
    this.resetEvent();
    return { truncated };
  }

  private scan(text: string): void {
    let start = 0;
    if (this.atStreamStart && text.length > 0) {
      this.atStreamStart = false;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.afterCr && start < text.length) {
      this.afterCr = false;
      if (text.charCodeAt(start) === 0x0a) start++;
    }
    LINE_END.lastIndex = start;
    for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
      const end = match.index;
      this.appendToLine(text.slice(start, end));
      this.finishLine();
      start = end + 1;
      if (text.charCodeAt(end) === 0x0d) {
        if (start === text.length) this.afterCr = true;
        else if (text.charCodeAt(start) === 0x0a) start++;
      }
      LINE_END.lastIndex = start;
    }
    if (start < text.length) this.appendToLine(text.slice(start));
  }

  private appendToLine(piece: string): void {
    if (piece.length === 0) return;
    this.lineChars += piece.length;
    if (this.dropping) return;
    this.lineBytes += utf8Length(piece);
    if (this.eventBytes + this.lineBytes > this.maxEventBytes) {
      this.startDropping();
      return;
    }
    this.lineParts.push(piece);
  }

  private finishLine(): void {
    const blank = this.lineChars === 0;
    const line =
      this.lineParts.length === 1 ? (this.lineParts[0] as string) : this.lineParts.join('');
    const bytes = this.lineBytes;
    this.lineParts = [];
    this.lineChars = 0;
    this.lineBytes = 0;
    if (blank) this.dispatch();
    else if (!this.dropping) this.processField(line, bytes);
  }

  private processField(line: string, bytes: number): void {
    if (line.charCodeAt(0) === 0x3a) {
      this.handlers.onComment?.(line.slice(1));
      return;
    }
    this.eventBytes += bytes;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (name) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (DIGITS.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      // Other field names are ignored, as the standard says.
    }
  }

  private dispatch(): void {
    if (this.dropping || this.data.length === 0) {
      this.resetEvent();
      return;
    }
    const event: SseEvent = {
      type: this.eventType === '' ? 'message' : this.eventType,
      data: this.data.join('\n'),
      lastEventId: this.id,
    };
    this.resetEvent();
    this.handlers.onEvent(event);
  }

  private startDropping(): void {
    this.dropping = true;
    this.lineParts = [];
    this.data = [];
    this.handlers.onOversized?.(
      new LocalError(
        LocalErrorCode.MessageTooLarge,
        `SSE event exceeds ${this.maxEventBytes} bytes; dropped`,
        { details: { limit: this.maxEventBytes } },
      ),
    );
  }

  private resetEvent(): void {
    this.data = [];
    this.eventType = '';
    this.eventBytes = 0;
    this.lineBytes = 0;
    this.dropping = false;
  }
}
