/**
 * One `subscriptions/listen`: acknowledge first, then forward the changes the filter honours,
 * tagged with the subscription id, until the client cancels (stream close on HTTP,
 * `notifications/cancelled` on stdio) or the server shuts down, which answers the listen
 * request with its final result. Never progress or log messages: those belong to requests.
 */
import {
  META_KEYS,
  type RequestId,
  type SubscriptionFilter,
  withServerInfo,
} from '@twofold/protocol/experimental';
import type { ModernIo } from '../core/modern-io';
import type { ServedServer } from '../core/served-server';
import { principalOf } from '../mrtr/modern-state';
import { acknowledgement, honouredFilter, notificationFor } from './filter';
import { listenHubOf } from './hub';
import { Outbox } from './outbox';
import { honouredTaskIds, subscribeTaskStatus } from './task-status';

/**
 * Serves a validated listen request until it ends; resolves with the final result (which the
 * caller sends unless the client has cancelled). Beyond the server's cap: a -32603 error.
 */
export async function serveListen(
  server: ServedServer,
  subscriptionId: RequestId,
  requested: SubscriptionFilter,
  io: ModernIo,
): Promise<Record<string, unknown>> {
  const hub = listenHubOf(server);
  const release = hub.reserve();
  try {
    const capabilities = server.operations.capabilities();
    const taskIds = honouredTaskIds(requested, capabilities);
    const honoured = {
      ...honouredFilter(requested, capabilities),
      ...(taskIds === undefined ? {} : { taskIds }),
    };
    const outbox = new Outbox(
      // After a cancel nothing more goes out for the request, not even what was queued.
      async (notification) => {
        if (!io.signal.aborted) await io.notify(notification);
      },
      (error) => {
        // A send failing because the client left is the cancellation itself, not a fault.
        if (!io.signal.aborted)
          io.onerror?.(error instanceof Error ? error : new Error(String(error)));
      },
    );
    // Queued before the bus listener exists, so nothing of this subscription precedes it.
    outbox.push(acknowledgement(honoured, subscriptionId));
    const unsubscribe = hub.bus.subscribe((change) => {
      const notification = notificationFor(change, honoured, subscriptionId);
      if (notification !== undefined) outbox.push(notification);
    });
    const unsubscribeTasks =
      taskIds === undefined
        ? () => {}
        : subscribeTaskStatus(server, taskIds, principalOf(io.auth), subscriptionId, (n) =>
            outbox.push(n),
          );
    // Operations that subscribe upstream (a proxy) learn which URIs this listen wants.
    const unwatch = (honoured.resourceSubscriptions ?? []).map(
      (uri) => server.operations.watchResource?.(uri) ?? (() => {}),
    );
    // Ended at once, in the same turn as the cancel: no change is queued after it, and the
    // slot is free for the next listen.
    await firstOf([io.signal, io.shutdown], outbox.failed, () => {
      unsubscribe();
      unsubscribeTasks();
      for (const stop of unwatch) stop();
      release();
    });
    // What was queued goes out before the final result.
    await outbox.drain();
  } finally {
    release();
  }
  const result = { resultType: 'complete', _meta: { [META_KEYS.subscriptionId]: subscriptionId } };
  return withServerInfo(result, server.serverInfo);
}

/**
 * Settles when any signal aborts or `failed` settles, calling `end` first (synchronously, once)
 * and leaving no listener behind.
 */
function firstOf(
  signals: (AbortSignal | undefined)[],
  failed: Promise<void>,
  end: () => void,
): Promise<void> {
  return new Promise((resolve) => {
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      for (const signal of signals) signal?.removeEventListener('abort', done);
      end();
      resolve();
    };
    if (signals.some((signal) => signal?.aborted === true)) return done();
    for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
    void failed.then(done);
  });
}
