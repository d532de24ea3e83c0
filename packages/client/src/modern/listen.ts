/**
 * The modern listen: one long-lived `subscriptions/listen` request whose tagged notifications
 * (the acknowledgement, then the changes) feed a `ChangeQueue`.
 */
import {
  type JsonRpcNotification,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { ChangeQueue, changeFromNotification } from '../listen/change-queue';
import type { ModernSend, SessionHooks } from '../session/types';
import type { ChangeStream, ListenFilter, ListenOptions } from '../types';

/** Unread changes a stream holds by default before it fails. */
const DEFAULT_MAX_BUFFERED = 1000;

/** What a modern listen needs from its session. */
export interface ModernListenInit {
  send: ModernSend;
  hooks: SessionHooks;
  /** True once the session's own `close()` has begun (open streams then end quietly). */
  isClosing: () => boolean;
  /** True once the connection is gone. */
  isDisconnected: () => boolean;
}

/**
 * Opens a listen stream. It ends normally on the server's final result or its
 * `notifications/cancelled`, fails with `CONNECTION_CLOSED` when the connection drops first,
 * and its `close()` aborts the request (the connection's cancel policy tells the server).
 */
export function openModernListen(
  init: ModernListenInit,
  filter: ListenFilter,
  options: ListenOptions = {},
): ChangeStream {
  const controller = new AbortController();
  let finished = false;

  function finish(): boolean {
    if (finished) return false;
    finished = true;
    options.signal?.removeEventListener('abort', onAbort);
    return true;
  }
  function onAbort(): void {
    void queue.close();
  }
  /** Releases the pending request (a no-op on the wire once the server has ended it). */
  function release(reason: string): void {
    controller.abort(new LocalError(LocalErrorCode.RequestAborted, reason));
  }

  const queue = new ChangeQueue({
    maxBuffered: options.maxBuffered ?? DEFAULT_MAX_BUFFERED,
    onClose: () => {
      if (finish()) release('listen closed by the client');
    },
  });

  const onTagged = (notification: JsonRpcNotification) => {
    if (finished) return;
    const { method, params } = notification;
    if (method === 'notifications/subscriptions/acknowledged') {
      queue.acknowledge(filterOf(params));
      return;
    }
    if (method === 'notifications/cancelled') {
      // The server tore the subscription down (the spec allows this instead of a result).
      finish();
      queue.end();
      release('listen ended by the server');
      return;
    }
    // The client's cache hears the change before the consumer can react to it.
    init.hooks.onNotification(method, params);
    const change = changeFromNotification(method, params);
    if (change) queue.push(change);
  };

  init
    .send(
      'subscriptions/listen',
      { notifications: { ...filter } },
      { timeoutMs: 0, onTagged, signal: controller.signal },
    )
    .then(
      () => {
        if (finish()) queue.end();
      },
      (error: unknown) => {
        if (!finish()) return;
        if (init.isClosing()) queue.end();
        else if (init.isDisconnected() || isDrop(error)) {
          queue.fail(
            new LocalError(
              LocalErrorCode.ConnectionClosed,
              'listen stream ended without a final result',
              { cause: error },
            ),
          );
        } else queue.fail(error instanceof Error ? error : new Error(String(error)));
      },
    );

  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  return queue;
}

function isDrop(error: unknown): boolean {
  return (
    error instanceof LocalError &&
    (error.code === LocalErrorCode.ConnectionClosed || error.code === LocalErrorCode.ProcessExited)
  );
}

/** The acknowledged filter, keeping only well-formed fields. */
function filterOf(params: Record<string, unknown> | undefined): ListenFilter {
  const raw = params?.notifications;
  const out: ListenFilter = {};
  if (typeof raw !== 'object' || raw === null) return out;
  const record = raw as Record<string, unknown>;
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (typeof record[key] === 'boolean') out[key] = record[key];
  }
  const uris = record.resourceSubscriptions;
  if (Array.isArray(uris)) {
    out.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string');
  }
  return out;
}
