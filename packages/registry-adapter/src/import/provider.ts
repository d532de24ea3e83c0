/**
 * `McpToolProvider`: imports the tools of any number of MCP servers into a host `ToolRegistry`,
 * naming them by a conflict policy, following their list changes and removing them when their
 * server goes away. Every naming decision is re-planned across all servers at once, one change
 * at a time, so registry edits never interleave.
 */
import {
  type ChangeStream,
  McpClient,
  type McpClientOptions,
  type ServerTarget,
} from '@twofold/client/experimental';
import { planNames } from '../names/plan';
import { resolveNameRules } from '../names/rules';
import type { ConflictPolicy, NameAssignment, NameRules, SkippedTool } from '../names/types';
import { compareNames } from '../registry/order';
import type { InputResolver, ToolOrigin, ToolRegistry } from '../registry/types';
import {
  callResolver,
  createServerLink,
  handlersFromResolver,
  type OwnedServerLink,
  soleCall,
} from './adapted-tool';
import { ToolNameConflictError } from './errors';
import { type Registration, syncRegistry } from './registry-sync';
import { adoptListing, listServerTools, openToolListen, type ServerState } from './server-state';
import type { AttachOptions, ProviderEvent, ToolProviderOptions } from './types';

/** Times a server's listen stream is opened before following its changes is given up. */
const MAX_LISTEN_OPENS = 5;

/**
 * Options of `McpToolProvider.connect`: attach options plus options of the client it creates.
 *
 * @experimental
 */
export type ConnectOptions = AttachOptions & { client?: Partial<McpClientOptions> };

/**
 * Imports MCP servers' tools into a `ToolRegistry`. Attach connected clients (`attach`) or let
 * the provider connect and own them (`connect`); every decision is reported to `onEvent`
 * (errors thrown by `onEvent` are ignored).
 *
 * @experimental
 */
export class McpToolProvider {
  readonly #registry: ToolRegistry;
  #policy: ConflictPolicy;
  readonly #rules: NameRules;
  readonly #resolver: InputResolver | undefined;
  readonly #onEvent: ((event: ProviderEvent) => void) | undefined;
  readonly #servers = new Map<string, ServerState>();
  readonly #pending = new Set<string>();
  /** A server keeps its place in the provider order across detach and re-attach. */
  readonly #ranks = new Map<string, number>();
  readonly #registrations = new Map<string, Registration>();
  #skipped: SkippedTool[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: ToolProviderOptions) {
    this.#registry = options.registry;
    this.#policy = options.conflictPolicy ?? 'prefix-on-collision';
    this.#rules = resolveNameRules(options.nameRules);
    this.#resolver = options.resolver;
    this.#onEvent = options.onEvent;
  }

  /**
   * Imports the tools of a connected client as server `name`: lists every page, registers
   * them by the plan and, unless `followChanges` is false, re-lists on list-changed. When the
   * client's connection ends the server is detached. Under the `error` policy a clash with
   * another server rejects with `ToolNameConflictError` and registers nothing. The provider
   * does not close an attached client (see `connect`).
   */
  async attach(
    name: string,
    client: McpClient,
    options: AttachOptions = {},
  ): Promise<NameAssignment[]> {
    // Async, so a refused name rejects like every other failure instead of throwing.
    this.#claim(name);
    return this.#attach(name, client, options, false, createServerLink(name, this.#resolver));
  }

  /**
   * Connects to `target` and attaches it as `name`. The client declares every input
   * capability and answers legacy requests for input with the resolver of the call in flight
   * (its own, else the provider's; none: declined; at most `MAX_INPUT_ROUNDS` per call), unless
   * `options.client.handlers` is given. The provider closes it on `detach` or `close`.
   */
  async connect(
    name: string,
    target: ServerTarget,
    options: ConnectOptions = {},
  ): Promise<McpClient> {
    this.#claim(name);
    const link = createServerLink(name, this.#resolver);
    const { client: clientOptions, ...attach } = options;
    let client: McpClient;
    try {
      // Legacy requests go to the resolver of the call in flight (its own, else ours).
      const routed: InputResolver = {
        resolve: (request, context) => callResolver(link).resolve(request, context),
      };
      // Always declared: without any resolver, modern rounds become resumable outcomes and
      // legacy requests are declined.
      const handlers =
        clientOptions?.handlers ?? handlersFromResolver(routed, () => soleCall(link));
      client = await McpClient.connect(target, {
        clientInfo: { name: 'twofold-registry-adapter', version: __TWOFOLD_VERSION__ },
        ...clientOptions,
        handlers,
      });
    } catch (error) {
      this.#pending.delete(name);
      throw error;
    }
    try {
      await this.#attach(name, client, attach, true, link);
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    return client;
  }

  /**
   * Removes server `name` and its tools (no-op when it is not attached), re-planning the others
   * (a prefixed name may become bare again: `tool-renamed`), and closes its client when the
   * provider owns it.
   */
  async detach(name: string, reason = 'detached'): Promise<void> {
    const state = this.#servers.get(name);
    if (state) await this.#detach(state, reason);
  }

  /** Re-lists server `name`'s tools (bypassing the cache) and re-plans. */
  async refresh(name: string): Promise<void> {
    const state = this.#servers.get(name);
    if (!state) throw new Error(`no server named ${JSON.stringify(name)} is attached`);
    await this.#relist(state);
  }

  /** The server and server-side name behind a host tool name. */
  origin(hostName: string): ToolOrigin | undefined {
    return this.#registrations.get(hostName)?.hostTool.origin;
  }

  /** The imported tools, by host name. */
  assignments(): NameAssignment[] {
    return [...this.#registrations]
      .sort(([a], [b]) => compareNames(a, b))
      .map(([name, { server, tool }]) => ({ server, tool: tool.name, name }));
  }

  /** The tools left out, and why. */
  skipped(): SkippedTool[] {
    return this.#skipped.map((skip) => ({ ...skip }));
  }

  /**
   * Sets the provider order ("earlier" for `first-wins` and `error`): `names` first, in that
   * order, then every other server known so far, as before. Names are re-planned at once.
   */
  async setServerOrder(names: readonly string[]): Promise<void> {
    await this.#exclusive(() => {
      const rest = [...this.#ranks.keys()].filter((name) => !names.includes(name));
      this.#ranks.clear();
      for (const name of [...new Set(names), ...rest]) this.#ranks.set(name, this.#ranks.size);
      this.#sync(this.#plan());
    });
  }

  /** Changes the conflict policy; every name is re-planned at once. */
  async setConflictPolicy(policy: ConflictPolicy): Promise<void> {
    await this.#exclusive(() => {
      if (policy === this.#policy) return;
      this.#policy = policy;
      this.#sync(this.#plan());
    });
  }

  /** The attached servers, in provider order. */
  servers(): string[] {
    return this.#ordered().map((state) => state.name);
  }

  /** Detaches every server (closing the clients it owns); the provider takes no new ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#ordered().map((state) => this.#detach(state, 'provider closed')));
  }

  #claim(name: string): void {
    if (this.#closed) throw new Error('the tool provider is closed');
    if (this.#servers.has(name) || this.#pending.has(name)) {
      throw new Error(`a server named ${JSON.stringify(name)} is already attached`);
    }
    this.#pending.add(name);
    // The place is taken when the server is added, so a slow connect does not lose it.
    if (!this.#ranks.has(name)) this.#ranks.set(name, this.#ranks.size);
  }

  async #attach(
    name: string,
    client: McpClient,
    options: AttachOptions,
    owned: boolean,
    link: OwnedServerLink,
  ): Promise<NameAssignment[]> {
    link.bind(client);
    const state: ServerState = {
      name,
      client,
      owned,
      link,
      filter: options.filter,
      tools: new Map(),
      filtered: [],
      listStarted: 0,
      listApplied: 0,
      relistAgain: false,
    };
    try {
      const follow =
        options.followChanges !== false && client.serverCapabilities.tools?.listChanged === true;
      // Listen before listing, so no change between the two goes unseen.
      if (follow) state.stream = await openToolListen(state, (event) => this.#emit(event));
      const listed = await listServerTools(state);
      const assignments = await this.#exclusive(() => {
        if (this.#closed) throw new Error('the tool provider is closed');
        adoptListing(state, listed);
        this.#servers.set(name, state);
        const plan = this.#plan();
        if (this.#policy === 'error') {
          const clash = plan.conflicts.find(
            ({ claimants }) =>
              claimants.some((c) => c.server === name) && claimants.some((c) => c.server !== name),
          );
          if (clash) {
            this.#servers.delete(name);
            const others = [...new Set(clash.claimants.map((c) => c.server))].filter(
              (server) => server !== name,
            );
            others.sort((a, b) => (this.#ranks.get(a) ?? 0) - (this.#ranks.get(b) ?? 0));
            // The refused server last, as documented, even when its place is ahead of theirs.
            throw new ToolNameConflictError(clash.name, [...others, name]);
          }
        }
        this.#sync(plan);
        this.#emit({ type: 'server-attached', server: name, tools: state.tools.size });
        return this.assignments().filter((assignment) => assignment.server === name);
      });
      state.offClose = client.onClose((cause) => {
        const reason = cause ? `disconnected: ${cause.message}` : 'disconnected';
        void this.#detach(state, reason);
      });
      if (state.stream) this.#follow(state, state.stream);
      return assignments;
    } catch (error) {
      link.detachedReason = 'was not attached';
      await state.stream?.close().catch(() => {});
      throw error;
    } finally {
      this.#pending.delete(name);
    }
  }

  async #detach(state: ServerState, reason: string): Promise<void> {
    const removed = await this.#exclusive(() => {
      if (this.#servers.get(state.name) !== state) return false;
      this.#servers.delete(state.name);
      state.link.detachedReason = `was detached (${reason})`;
      this.#sync(this.#plan(), reason);
      this.#emit({ type: 'server-detached', server: state.name, reason });
      return true;
    });
    if (!removed) return;
    state.offClose?.();
    await state.stream?.close().catch(() => {});
    if (state.owned) await state.client.close().catch(() => {});
  }

  async #relist(state: ServerState): Promise<void> {
    const listed = await listServerTools(state);
    await this.#exclusive(() => {
      if (this.#servers.get(state.name) !== state || !adoptListing(state, listed)) return;
      this.#sync(this.#plan());
    });
  }

  /** Re-lists after a change; changes arriving meanwhile cause one more re-list. */
  #scheduleRelist(state: ServerState): void {
    if (state.relisting) {
      state.relistAgain = true;
      return;
    }
    state.relisting = (async () => {
      do {
        state.relistAgain = false;
        try {
          await this.#relist(state);
        } catch (error) {
          if (this.#live(state)) {
            this.#emit({ type: 'relist-failed', server: state.name, error: asError(error) });
          }
        }
      } while (state.relistAgain && this.#live(state));
      state.relisting = undefined;
    })();
  }

  /** Re-lists on each change; a stream that ends while the server is live is reopened (bounded). */
  #follow(state: ServerState, first: ChangeStream): void {
    void (async () => {
      let stream: ChangeStream | undefined = first;
      for (let opened = 1; stream; opened++) {
        try {
          for await (const change of stream) {
            if (change.type === 'toolsListChanged') this.#scheduleRelist(state);
          }
        } catch {
          // The stream dropped; reopened below while the server is still attached.
        }
        if (!this.#live(state)) return;
        if (opened >= MAX_LISTEN_OPENS) {
          const message = `stopped following tool list changes of server ${JSON.stringify(state.name)}: its listen stream ended ${opened} times`;
          this.#emit({ type: 'warning', server: state.name, message });
          return;
        }
        stream = await openToolListen(state, (event) => this.#emit(event));
        if (!this.#live(state)) {
          // Detached while it opened: `#detach` closed the old stream, this one is ours to close.
          await stream?.close().catch(() => {});
          return;
        }
        state.stream = stream;
        // Changes between the streams went unseen: catch up.
        if (stream) this.#scheduleRelist(state);
      }
    })();
  }

  #live(state: ServerState): boolean {
    return this.#servers.get(state.name) === state && !state.client.closed;
  }

  #ordered(): ServerState[] {
    const rank = (state: ServerState) => this.#ranks.get(state.name) ?? 0;
    return [...this.#servers.values()].sort((a, b) => rank(a) - rank(b));
  }

  #plan() {
    const servers = this.#ordered().map((state) => ({
      server: state.name,
      tools: [...state.tools.keys()],
    }));
    return planNames(servers, this.#policy, this.#rules);
  }

  #sync(plan: ReturnType<typeof planNames>, detachReason?: string): void {
    this.#skipped = syncRegistry({
      registry: this.#registry,
      registrations: this.#registrations,
      servers: this.#ordered(),
      plan,
      previousSkipped: this.#skipped,
      ...(detachReason === undefined ? {} : { detachReason }),
      emit: (event) => this.#emit(event),
    });
  }

  /** Runs `task` after every earlier one: registry edits never interleave. */
  #exclusive<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  #emit(event: ProviderEvent): void {
    try {
      this.#onEvent?.(event);
    } catch {
      // A host's event listener must not break the import.
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
