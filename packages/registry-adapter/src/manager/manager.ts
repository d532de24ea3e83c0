/**
 * `ServerManager`: a supervised set of MCP servers from an `mcp.json`, their tools gathered in
 * one host registry under the config's conflict policy. Servers start in parallel, each within
 * its connect budget; one that cannot start costs a line and an event while the rest go on.
 * Changes at run time (add, update, enable, disable, remove, reload) are serialised per server
 * and reconcile without restarting what did not change.
 */
import type { McpClient } from '@twofold/client/experimental';
import { parseMcpConfig, parseServerEntry } from '../config/parse';
import { configServers, withConfigServers } from '../config/shape';
import type { McpConfig, ServerEntry, ServerEntryCommon } from '../config/types';
import { McpToolProvider } from '../import/provider';
import { readMcpConfigFile } from '../node/config-file';
import { InMemoryToolRegistry } from '../registry/memory';
import type { ToolRegistry } from '../registry/types';
import { asRecord, ConfigStore } from './config-store';
import { Supervisor, type SupervisorHost } from './supervisor';
import type {
  ManagedServerStatus,
  ManagerConfigSource,
  ManagerEvent,
  ServerManagerOptions,
} from './types';
import { watchConfigFile } from './watch';

const CLIENT_INFO = { name: 'twofold-registry-adapter', version: __TWOFOLD_VERSION__ };

/**
 * Supervises the servers of an `mcp.json` and keeps their tools in `registry`.
 *
 * @example
 * ```ts
 * import { ServerManager } from '@twofold/registry-adapter/node';
 *
 * const manager = await ServerManager.fromFile('mcp.json', { watch: true });
 * await manager.start(); // a server that cannot start is logged and retried, not thrown
 * for (const tool of manager.registry.list()) console.log(tool.name, 'from', tool.origin?.server);
 * await manager.close();
 * ```
 * @experimental
 */
export class ServerManager {
  /** The aggregated view: every running server's tools, named by the conflict policy. */
  readonly registry: ToolRegistry;
  readonly #options: ServerManagerOptions;
  readonly #store: ConfigStore;
  readonly #provider: McpToolProvider;
  readonly #supervisors = new Map<string, Supervisor>();
  readonly #host: SupervisorHost;
  #configQueue: Promise<unknown> = Promise.resolve();
  #started = false;
  #closed = false;
  #unwatch: (() => void) | undefined;

  /** Reads and validates `path` (throwing `McpConfigError`), then manages its servers. */
  static async fromFile(path: string, options: ServerManagerOptions = {}): Promise<ServerManager> {
    const document = await readMcpConfigFile(path);
    return new ServerManager({ ...document, path }, options);
  }

  /**
   * Validates an `mcp.json` document given as an object (throwing `McpConfigError`) and
   * manages its servers, keeping the config in memory only.
   */
  static fromConfig(raw: unknown, options: ServerManagerOptions = {}): ServerManager {
    const config = parseMcpConfig(raw);
    return new ServerManager({ config, raw: raw as Record<string, unknown> }, options);
  }

  /** Manages the servers of `source`; nothing starts before `start()`. */
  constructor(source: ManagerConfigSource, options: ServerManagerOptions = {}) {
    this.#options = options;
    this.registry = options.registry ?? new InMemoryToolRegistry();
    this.#store = new ConfigStore(source, (error) => {
      this.#log(`cannot write ${this.#store.path}: ${error.message}`);
      this.#emit({ type: 'config-write-failed', error });
    });
    this.#provider = new McpToolProvider({
      registry: this.registry,
      conflictPolicy: source.config.conflictPolicy,
      ...(options.nameRules === undefined ? {} : { nameRules: options.nameRules }),
      ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
      onEvent: (event) => this.#emit({ type: 'tools', event }),
    });
    const env = options.env ?? process.env;
    this.#host = {
      provider: this.#provider,
      clientOptions: { clientInfo: options.clientInfo ?? CLIENT_INFO, ...options.client },
      targetContext: (server) => ({
        env,
        baseDir: this.#store.baseDir,
        stderr: options.stderr && ((chunk: string) => options.stderr?.(server, chunk)),
        auth: options.auth?.(server),
      }),
      storedVerdict: (server) => this.#store.config.verdicts[server],
      saveVerdict: (server, stored) => this.#store.setVerdict(server, stored),
      emit: (event) => this.#emit(event),
      log: (line) => this.#log(line),
      random: options.random ?? Math.random,
    };
    void this.#provider.setServerOrder(Object.keys(source.config.mcpServers));
    for (const [name, entry] of Object.entries(source.config.mcpServers)) {
      this.#supervisors.set(name, new Supervisor(name, entry, this.#host));
    }
  }

  /** The config as the manager holds it now (defaults filled). */
  get config(): McpConfig {
    return this.#store.config;
  }

  /**
   * Starts every enabled server in parallel and settles once each has started or failed its
   * first attempt (failures are reported, not thrown). Watches the file when asked to.
   */
  async start(): Promise<ManagedServerStatus[]> {
    this.#assertOpen();
    this.#started = true;
    const path = this.#store.path;
    if (this.#options.watch && path !== undefined && this.#unwatch === undefined) {
      this.#unwatch = watchConfigFile(path, this.#store, () => this.#watchedReload());
    }
    await Promise.all([...this.#supervisors.values()].map((s) => s.start()));
    return this.status();
  }

  /** Every server's status, in config order. */
  status(): ManagedServerStatus[] {
    return [...this.#supervisors.values()].map((s) => s.status());
  }

  /** One server's status, or `undefined` when there is no such server. */
  serverStatus(name: string): ManagedServerStatus | undefined {
    return this.#supervisors.get(name)?.status();
  }

  /** The client of a running server. */
  client(name: string): McpClient | undefined {
    return this.#supervisors.get(name)?.client;
  }

  /** Adds a server (validated as an `mcp.json` entry) and starts it if the manager runs. */
  add(name: string, entry: unknown): Promise<void> {
    return this.#configChange(async () => {
      if (this.#supervisors.has(name))
        throw new Error(`a server named ${JSON.stringify(name)} exists`);
      const parsed = parseServerEntry(name, entry);
      this.#store.edit((raw) => withConfigServers(raw, { ...configServers(raw), [name]: entry }));
      const supervisor = new Supervisor(name, parsed, this.#host);
      this.#supervisors.set(name, supervisor);
      await this.#provider.setServerOrder([...this.#supervisors.keys()]);
      this.#emit({ type: 'server-added', server: name });
      if (this.#started) await supervisor.start();
    });
  }

  /** Replaces a server's entry; a running server restarts with it. */
  update(name: string, entry: unknown): Promise<void> {
    return this.#configChange(async () => {
      const supervisor = this.#existing(name);
      const parsed = parseServerEntry(name, entry);
      this.#store.edit((raw) => withConfigServers(raw, { ...configServers(raw), [name]: entry }));
      this.#emit({ type: 'server-updated', server: name });
      await supervisor.update(parsed);
    });
  }

  /** Sets `enabled: true` and starts the server if the manager runs. */
  enable(name: string): Promise<void> {
    return this.#setEnabled(name, true);
  }

  /** Sets `enabled: false` and stops the server. */
  disable(name: string): Promise<void> {
    return this.#setEnabled(name, false);
  }

  /** Stops a server, takes its tools out and deletes its entry (and stored verdict). */
  remove(name: string): Promise<void> {
    return this.#configChange(async () => {
      const supervisor = this.#existing(name);
      this.#store.edit((raw) => {
        const { [name]: _gone, ...rest } = configServers(raw);
        const { [name]: _verdict, ...verdicts } = asRecord(raw.verdicts);
        const next: Record<string, unknown> = { ...withConfigServers(raw, rest), verdicts };
        if (Object.keys(verdicts).length === 0) delete next.verdicts;
        return next;
      });
      await supervisor.stop('removed from the config');
      this.#supervisors.delete(name);
      this.#emit({ type: 'server-removed', server: name });
    });
  }

  /** Restarts a server now, with a fresh failure count. */
  restart(name: string): Promise<void> {
    this.#assertOpen();
    return this.#existing(name).restart();
  }

  /**
   * Reconciles with a new config (default: the file, read again): servers that are gone stop,
   * new ones start, changed ones restart, and unchanged ones are not touched. An invalid file
   * throws `McpConfigError` and leaves everything as it was.
   */
  reload(next?: ManagerConfigSource): Promise<void> {
    return this.#configChange(async () => {
      const path = this.#store.path;
      if (next === undefined && path === undefined)
        throw new Error('reload() needs a config: the manager has no file');
      await this.#store.saved();
      const source = next ?? { ...(await readMcpConfigFile(path as string)), path };
      await this.#reconcile(source);
    });
  }

  /** Resolves once every write to the config file so far has landed. */
  saved(): Promise<void> {
    return this.#store.saved();
  }

  /** Stops every server (no process is left) and the file watcher; the manager is done. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unwatch?.();
    await Promise.all([...this.#supervisors.values()].map((s) => s.stop('manager closed')));
    await this.#provider.close();
    await this.#store.saved();
  }

  async #reconcile(source: ManagerConfigSource): Promise<void> {
    const before = this.#store.config.mcpServers;
    const after = source.config.mcpServers;
    const removed = Object.keys(before).filter((name) => !(name in after));
    const added = Object.keys(after).filter((name) => !(name in before));
    const updated = Object.keys(after).filter(
      (name) =>
        name in before && !sameEntry(before[name] as ServerEntry, after[name] as ServerEntry),
    );
    const unchanged = Object.keys(after).filter(
      (name) => !added.includes(name) && !updated.includes(name),
    );
    this.#store.replace(source);
    await this.#provider.setConflictPolicy(source.config.conflictPolicy);
    const work: Promise<void>[] = [];
    for (const name of removed) {
      const supervisor = this.#supervisors.get(name) as Supervisor;
      this.#supervisors.delete(name);
      work.push(supervisor.stop('removed from the config'));
    }
    for (const name of updated) {
      work.push((this.#supervisors.get(name) as Supervisor).update(after[name] as ServerEntry));
    }
    const order = new Map<string, Supervisor>();
    for (const name of Object.keys(after)) {
      const supervisor =
        this.#supervisors.get(name) ?? new Supervisor(name, after[name] as ServerEntry, this.#host);
      order.set(name, supervisor);
      if (added.includes(name) && this.#started) work.push(supervisor.start());
    }
    this.#supervisors.clear();
    for (const [name, supervisor] of order) this.#supervisors.set(name, supervisor);
    await this.#provider.setServerOrder([...order.keys()]);
    await Promise.all(work);
    this.#emit({ type: 'reloaded', added, removed, updated, unchanged });
  }

  #setEnabled(name: string, enabled: boolean): Promise<void> {
    return this.#configChange(async () => {
      const supervisor = this.#existing(name);
      const config = this.#store.edit((raw) => {
        const all = configServers(raw);
        return withConfigServers(raw, { ...all, [name]: { ...asRecord(all[name]), enabled } });
      });
      await supervisor.update(config.mcpServers[name] as ServerEntry);
      if (enabled && this.#started) await supervisor.start();
    });
  }

  /** Config changes run one at a time, in call order. */
  #configChange(change: () => Promise<void>): Promise<void> {
    this.#assertOpen();
    const run = this.#configQueue.then(change);
    this.#configQueue = run.catch(() => undefined);
    return run;
  }

  #watchedReload(): void {
    this.reload().catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#log(`reloading ${this.#store.path} failed: ${failure.message}`);
      this.#emit({ type: 'reload-failed', error: failure });
    });
  }

  #existing(name: string): Supervisor {
    const supervisor = this.#supervisors.get(name);
    if (!supervisor) throw new Error(`no server named ${JSON.stringify(name)}`);
    return supervisor;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the server manager is closed');
  }

  #emit(event: ManagerEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // A host's listener must not break supervision.
    }
  }

  #log(line: string): void {
    try {
      this.#options.log?.(line);
    } catch {
      // As above.
    }
  }
}

/** Whether two parsed entries would run the same server the same way. */
function sameEntry(a: ServerEntry, b: ServerEntry): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(entry: ServerEntryCommon): unknown {
  return JSON.parse(JSON.stringify(entry), (_key, value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : value,
  );
}
