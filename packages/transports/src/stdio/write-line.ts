/**
 * Writing one framed message to a Node stream with backpressure: the promise settles when the
 * stream has taken the bytes, waiting for `drain` when its buffer is full, and rejects when the
 * stream goes away first — a sender is never left waiting on a dead pipe.
 */
import type { Writable } from 'node:stream';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/** The error for a write on (or waiting on) a stream that has closed. */
export function connectionClosed(cause?: unknown): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, 'The stdio connection is closed', {
    cause,
  });
}

function aborted(signal: AbortSignal): LocalError {
  return new LocalError(LocalErrorCode.RequestAborted, 'Sending was aborted', {
    cause: signal.reason,
  });
}

/**
 * Writes `text` to `stream`. Resolves at once when the stream accepts it without exceeding its
 * buffer, else on `drain`. Rejects with `CONNECTION_CLOSED` when the stream closes or fails
 * before that, and with `REQUEST_ABORTED` when `signal` fires while waiting (the bytes are then
 * already queued and may still go out: a stream cannot take a write back).
 */
export function writeLine(stream: Writable, text: string, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted(signal));
  if (stream.destroyed || stream.writableEnded) return Promise.reject(connectionClosed());
  return new Promise<void>((resolve, reject) => {
    let failed: unknown;
    const accepted = stream.write(text, 'utf8', (error) => {
      if (error) failed = error;
    });
    if (accepted) {
      resolve();
      return;
    }
    const settle = (error?: LocalError) => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(connectionClosed(failed));
    const onError = (error: Error) => settle(connectionClosed(error));
    const onAbort = () => settle(aborted(signal as AbortSignal));
    stream.on('drain', onDrain);
    stream.on('close', onClose);
    stream.on('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
