/**
 * Reads an SSE response body to its end (or until told to stop), turning `message` events into
 * JSON-RPC messages. Read failures are returned, not thrown, together with the last event id,
 * because a legacy stream may be resumed from it.
 */
import {
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  parseMessage,
} from '@twofold/protocol/experimental';
import { type SseEvent, SseParser } from '../sse/parser';
import { truncateText } from './http-response';

/** Callbacks of {@link consumeSse}. */
export interface SseConsumerHandlers {
  /** A JSON-RPC message arrived; return `true` to stop reading (e.g. the awaited response). */
  onMessage: (message: JsonRpcMessage) => boolean;
  /** A bad event (not JSON-RPC, oversized); the stream goes on. */
  onInvalid: (error: LocalError) => void;
  /** Any event or comment arrived (keep-alives count). */
  onActivity: () => void;
  /** The server set its reconnection time. */
  onRetry: (milliseconds: number) => void;
  /** An event of another type than `message` (e.g. the HTTP+SSE `endpoint`). */
  onOtherEvent?: (event: SseEvent) => void;
}

/** How reading a stream ended. */
export interface SseConsumeResult {
  /** Reading stopped because `onMessage` asked for it. */
  stopped: boolean;
  /** The stream ended inside an event. */
  truncated: boolean;
  /** The read failure (network error, abort), if the stream did not end normally. */
  error?: unknown;
  /** The last event id seen, to resume from (`''` when none). */
  lastEventId: string;
}

/** Limits and context of {@link consumeSse}. */
export interface SseConsumeOptions {
  maxEventBytes: number;
  /** The id to resume from, inherited by a reconnected stream. */
  lastEventId?: string;
  /** Added to the `details` of reported errors (e.g. the request id). */
  details?: Record<string, unknown>;
  /**
   * The exchange's signal. Its abort cancels the reader itself: not every runtime's fetch
   * (Deno's, for one) ends a body being read when its request is aborted.
   */
  signal?: AbortSignal;
}

/** Reads `body` as an SSE stream of JSON-RPC messages. */
export async function consumeSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseConsumerHandlers,
  options: SseConsumeOptions,
): Promise<SseConsumeResult> {
  let stopped = false;
  const parser = new SseParser(
    {
      onEvent: (event) => {
        handlers.onActivity();
        if (stopped) return;
        if (event.type !== 'message') handlers.onOtherEvent?.(event);
        // Empty data is a priming event (it only carries an id); nothing to deliver.
        else if (event.data !== '') stopped = deliver(event.data, handlers, options.details);
      },
      onComment: () => handlers.onActivity(),
      onRetry: (ms) => handlers.onRetry(ms),
      onOversized: (error) =>
        handlers.onInvalid(
          new LocalError(error.code, error.message, {
            details: { ...error.details, ...options.details },
          }),
        ),
    },
    { maxEventBytes: options.maxEventBytes, lastEventId: options.lastEventId ?? '' },
  );
  const reader = body.getReader();
  const { signal } = options;
  // A cancelled reader's pending read resolves as done; the abort reason is reported below.
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) return { stopped, ...parser.end(), lastEventId: parser.lastEventId };
      parser.feed(value);
    }
    await reader.cancel().catch(() => undefined);
    return { stopped, truncated: false, lastEventId: parser.lastEventId };
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    return { stopped, ...parser.end(), error, lastEventId: parser.lastEventId };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

function deliver(
  data: string,
  handlers: SseConsumerHandlers,
  details: Record<string, unknown> | undefined,
): boolean {
  const decoded = parseMessage(data);
  if (decoded.ok) return handlers.onMessage(decoded.message);
  handlers.onInvalid(
    new LocalError(
      LocalErrorCode.InvalidMessage,
      `SSE event is not a JSON-RPC message: ${decoded.error.message}`,
      { details: { ...details, text: truncateText(data, 200) } },
    ),
  );
  return false;
}
