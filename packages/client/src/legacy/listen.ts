/**
 * `listen` on a legacy session: list changes arrive session-wide when the server declares
 * `listChanged`, resource updates after `resources/subscribe`. Several listens may share one
 * resource subscription; it is dropped (`resources/unsubscribe`) when the last one closes.
 */
import {
  LocalError,
  LocalErrorCode,
  type ServerCapabilities,
} from '@twofold/protocol/experimental';
import { ChangeQueue, changeFromNotification } from '../listen/change-queue';
import type { RpcConnection } from '../rpc/connection';
import type { SessionHooks } from '../session/types';
import type { ChangeNotification, ChangeStream, ListenFilter, ListenOptions } from '../types';
import { messageOf } from '../util';

const DEFAULT_MAX_BUFFERED = 1000;

const LIST_FLAGS = [
  ['toolsListChanged', 'tools'],
  ['promptsListChanged', 'prompts'],
  ['resourcesListChanged', 'resources'],
] as const;

/** One open listen: what it receives so far (URIs join once subscribed). */
interface OpenListen {
  queue: ChangeQueue;
  flags: Set<ChangeNotification['type']>;
  uris: Set<string>;
  /** The URIs it holds a share of (subscribed or still subscribing). */
  claimed: string[];
}

/** A resource subscription shared by the listens that need it. */
interface SharedSubscription {
  users: number;
  /** Whether the latest `resources/subscribe` succeeded. */
  ready: Promise<boolean>;
}

/** The open listens of one legacy session. */
export class LegacyListens {
  private readonly open = new Set<OpenListen>();
  private readonly subscriptions = new Map<string, SharedSubscription>();
  /** The last subscribe/unsubscribe per URI, so they reach the server in order. */
  private readonly lastOp = new Map<string, Promise<unknown>>();

  constructor(
    private readonly connection: RpcConnection,
    private readonly hooks: SessionHooks,
    private readonly capabilities: ServerCapabilities,
  ) {}

  /** Starts a listen: the honoured subset is acknowledged once its subscriptions settled. */
  listen(filter: ListenFilter, options: ListenOptions = {}): ChangeStream {
    let entry: OpenListen | undefined;
    const onAbort = () => void queue.close();
    const queue = new ChangeQueue({
      maxBuffered: options.maxBuffered ?? DEFAULT_MAX_BUFFERED,
      onClose: async () => {
        options.signal?.removeEventListener('abort', onAbort);
        if (entry !== undefined) await this.release(entry);
      },
    });
    if (this.connection.isClosed) {
      queue.fail(closedError());
      return queue;
    }
    entry = { queue, flags: new Set(), uris: new Set(), claimed: [] };
    const honoured: ListenFilter = {};
    for (const [flag, kind] of LIST_FLAGS) {
      if (filter[flag] === true && this.capabilities[kind]?.listChanged === true) {
        honoured[flag] = true;
        entry.flags.add(flag);
      }
    }
    this.open.add(entry);
    if (options.signal?.aborted) {
      void queue.close();
      return queue;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const requested = filter.resourceSubscriptions;
    if (requested === undefined || this.capabilities.resources?.subscribe !== true) {
      queue.acknowledge(honoured);
      return queue;
    }
    const claimed = [...new Set(requested)];
    entry.claimed = claimed;
    const outcomes = claimed.map((uri) => this.acquire(uri));
    void Promise.all(outcomes).then((ok) => {
      const uris = claimed.filter((_, i) => ok[i] === true);
      // A listen closed meanwhile must not start receiving.
      if (entry !== undefined && this.open.has(entry)) for (const uri of uris) entry.uris.add(uri);
      queue.acknowledge({ ...honoured, resourceSubscriptions: uris });
    });
    return queue;
  }

  /** Feeds a session notification to every open listen that asked for it. */
  deliver(method: string, params: Record<string, unknown> | undefined): void {
    const change = changeFromNotification(method, params);
    if (change === undefined || change.type === 'extension') return;
    for (const entry of this.open) {
      const wanted =
        change.type === 'resourceUpdated'
          ? [...entry.uris].some((uri) => concernsResource(uri, change.uri))
          : entry.flags.has(change.type);
      if (wanted) entry.queue.push(change);
    }
  }

  /** Ends every open listen: normally (`error` undefined) or with `error`. */
  finishAll(error?: Error): void {
    for (const entry of [...this.open]) {
      this.open.delete(entry);
      if (error === undefined) entry.queue.end();
      else entry.queue.fail(error);
    }
  }

  private acquire(uri: string): Promise<boolean> {
    const shared = this.subscriptions.get(uri);
    if (shared !== undefined) {
      shared.users += 1;
      return shared.ready;
    }
    const ready = this.subscribe(uri);
    this.subscriptions.set(uri, { users: 1, ready });
    return ready;
  }

  /** A renewed session knows none of the old one's subscriptions: each is made again. */
  renewSubscriptions(): void {
    for (const [uri, shared] of this.subscriptions) shared.ready = this.subscribe(uri);
  }

  private subscribe(uri: string): Promise<boolean> {
    return this.enqueue(uri, () =>
      this.connection.request('resources/subscribe', { uri }, this.requestOptions()).then(
        () => true,
        (error: unknown) => {
          this.warn(`resources/subscribe failed for ${uri}`, uri, error);
          return false;
        },
      ),
    );
  }

  private async release(entry: OpenListen): Promise<void> {
    this.open.delete(entry);
    const claimed = entry.claimed;
    entry.claimed = [];
    await Promise.all(claimed.map((uri) => this.drop(uri)));
  }

  private async drop(uri: string): Promise<void> {
    const shared = this.subscriptions.get(uri);
    if (shared === undefined) return;
    shared.users -= 1;
    if (shared.users > 0) return;
    this.subscriptions.delete(uri);
    await this.enqueue(uri, async () => {
      if (!(await shared.ready) || this.connection.isClosed) return;
      await this.connection
        .request('resources/unsubscribe', { uri }, this.requestOptions())
        .catch((error: unknown) => {
          if (!this.connection.isClosed)
            this.warn(`resources/unsubscribe failed for ${uri}`, uri, error);
        });
    });
  }

  private enqueue<T>(uri: string, op: () => Promise<T>): Promise<T> {
    const previous = this.lastOp.get(uri) ?? Promise.resolve();
    const next = previous.then(op);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.lastOp.set(uri, tail);
    void tail.then(() => {
      if (this.lastOp.get(uri) === tail) this.lastOp.delete(uri);
    });
    return next;
  }

  private requestOptions() {
    return { timeoutMs: this.hooks.requestTimeoutMs };
  }

  private warn(message: string, uri: string, error: unknown): void {
    this.hooks.onWarning({
      code: 'listen',
      message: `${message}: ${messageOf(error)}`,
      details: { uri },
    });
  }
}

/** The error open listens fail with when the connection drops. */
export function closedError(cause?: Error): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, 'The connection closed during listen', {
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Whether an update of `changed` concerns the subscribed `uri`: the same URI or a sub-resource
 * below it at a `/` boundary (servers may report sub-resources).
 */
function concernsResource(subscribed: string, changed: string): boolean {
  if (changed === subscribed) return true;
  const base = subscribed.endsWith('/') ? subscribed : `${subscribed}/`;
  return changed.startsWith(base);
}
