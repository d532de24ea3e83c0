/**
 * The per-server state of `subscriptions/listen`: the change bus and the count of open
 * subscriptions against the cap. Dispatch is stateless, so it finds the hub by server.
 */
import { ErrorCode, ProtocolError } from '@twofold/protocol/experimental';
import type { ServedServer } from '../core/served-server';
import type { ChangeBus } from '../core/shared-state';
import type { Change } from '../operations/types';
import { InMemoryChangeBus } from './change-bus';

const DEFAULT_MAX_SUBSCRIPTIONS = 1_000;

/** The bus and the cap of one server's subscriptions. */
export class ListenHub {
  readonly bus: ChangeBus;
  readonly maxSubscriptions: number;
  private open = 0;
  private unwire: (() => void) | undefined;

  constructor(private readonly server: ServedServer) {
    const { bus, maxSubscriptions = DEFAULT_MAX_SUBSCRIPTIONS } = server.options.listen ?? {};
    if (!Number.isSafeInteger(maxSubscriptions) || maxSubscriptions < 1) {
      throw new RangeError('listen.maxSubscriptions must be a whole number >= 1');
    }
    this.maxSubscriptions = maxSubscriptions;
    this.bus = bus ?? new InMemoryChangeBus();
    // A shared bus may have listeners elsewhere; the in-memory one only while ours are open.
    if (bus !== undefined) this.wire();
  }

  /** Takes a slot for a new subscription; returns its release. Beyond the cap: -32603. */
  reserve(): () => void {
    if (this.open >= this.maxSubscriptions) {
      throw new ProtocolError(
        ErrorCode.InternalError,
        `Too many open subscriptions (at most ${this.maxSubscriptions}); retry later`,
        { maxSubscriptions: this.maxSubscriptions },
      );
    }
    this.open++;
    if (this.open === 1 && this.unwire === undefined) this.wire();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      if (this.open === 0 && this.server.options.listen?.bus === undefined) {
        this.unwire?.();
        this.unwire = undefined;
      }
    };
  }

  /**
   * Hears every change a listener of this server should hear: the shared bus's when one is
   * configured (this server's own changes travel through it too), else the registry's.
   */
  onChange(listener: (change: Change) => void): () => void {
    return this.server.options.listen?.bus === undefined
      ? this.server.operations.onChange(listener)
      : this.bus.subscribe(listener);
  }

  /** Publishes the server's own changes on the bus. */
  private wire(): void {
    this.unwire = this.server.operations.onChange((change) => this.bus.publish(change));
  }
}

const hubs = new WeakMap<ServedServer, ListenHub>();

/**
 * The hub of `server`, made on first use: serving a server makes it, so invalid `listen`
 * options fail then and a shared bus hears the server's changes from then on.
 */
export function listenHubOf(server: ServedServer): ListenHub {
  let hub = hubs.get(server);
  if (hub === undefined) {
    hub = new ListenHub(server);
    hubs.set(server, hub);
  }
  return hub;
}
