/**
 * Server-Sent Events encoder (the writing half of the WHATWG `text/event-stream` format).
 * Runtime-neutral: produces strings; the caller encodes them to bytes.
 */

/**
 * One SSE event. Every field is optional; an event with only an `id` (and empty data) moves
 * the client's last event id without dispatching anything, which MCP uses as a priming event.
 *
 * @experimental
 */
export interface SseEventInit {
  /** The event id, echoed back by a reconnecting client as `Last-Event-ID`. */
  id?: string;
  /** The event type; clients treat an absent type as `message`. */
  event?: string;
  /** The payload; line breaks (LF, CR or CRLF) become one `data:` line each. */
  data?: string;
  /** The reconnection delay the client should use, in milliseconds. */
  retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

// A field value may not contain a line break (it would end the field) nor, for ids, NUL.
function assertSingleLine(field: string, value: string): void {
  if (LINE_BREAK.test(value) || (field === 'id' && value.includes('\0'))) {
    throw new TypeError(`SSE ${field} must be a single line without NUL: ${JSON.stringify(value)}`);
  }
}

function fieldLine(field: string, value: string): string {
  return value === '' ? `${field}:\n` : `${field}: ${value}\n`;
}

/**
 * Encodes one event, terminated by the blank line that dispatches it. An event with no field
 * at all is encoded as an empty `data:` line so that it still terminates cleanly.
 *
 * @throws TypeError when `id` or `event` contains a line break (or `id` a NUL), or `retry` is
 *   not a non-negative integer.
 * @experimental
 */
export function encodeSseEvent(event: SseEventInit): string {
  let text = '';
  if (event.id !== undefined) {
    assertSingleLine('id', event.id);
    text += fieldLine('id', event.id);
  }
  if (event.event !== undefined) {
    assertSingleLine('event', event.event);
    text += fieldLine('event', event.event);
  }
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0) {
      throw new TypeError(`SSE retry must be a non-negative integer: ${event.retry}`);
    }
    text += fieldLine('retry', String(event.retry));
  }
  if (event.data !== undefined || text === '') {
    for (const line of (event.data ?? '').split(LINE_BREAK)) text += fieldLine('data', line);
  }
  return `${text}\n`;
}

/**
 * Encodes a comment (a line starting with `:`), which clients ignore; used as a keep-alive so
 * proxies do not close an idle stream. Multi-line text becomes one comment line per line.
 *
 * @experimental
 */
export function encodeSseComment(text = ''): string {
  return `${text
    .split(LINE_BREAK)
    .map((line) => (line === '' ? ':' : `: ${line}`))
    .join('\n')}\n\n`;
}
