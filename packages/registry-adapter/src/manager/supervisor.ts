/**
 * One managed server's life: start within a budget, watch it (process exit, session end,
 * liveness checks), restart it with backoff and jitter, give up on a crash loop. Every
 * operation on a server runs through its own queue, so a reload, a manual restart and an
 * automatic one never interleave; a generation number retires callbacks of an older run.
 */
import type { EraVerdict, McpClient, McpClientOptions } from '@twofold/client/experimental';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { ServerEntry, StoredVerdict } from '../config/types';
import type { McpToolProvider } from '../import/provider';
import { FailureWindow, restartDelay } from './backoff';
import { asError, exitOf, retryable } from './failures';
import { type ManagedTarget, managedTarget, type TargetContext } from './targets';
import type { FailurePhase, ManagedServerState, ManagedServerStatus, ManagerEvent } from './types';
import { reusableVerdict, sameStoredVerdict, storableVerdict } from './verdicts';

/** Longest a liveness check may take, whatever the check period. */
const MAX_HEALTH_TIMEOUT_MS = 10_000;

/** What a supervisor needs from its manager. */
export interface SupervisorHost {
  readonly provider: McpToolProvider;
  readonly clientOptions: Partial<McpClientOptions>;
  targetContext(server: string): TargetContext;
  storedVerdict(server: string): StoredVerdict | undefined;
  /** Stores (or with `undefined`, drops) a server's verdict. */
  saveVerdict(server: string, stored: StoredVerdict | undefined): void;
  emit(event: ManagerEvent): void;
  log(line: string): void;
  random(): number;
}

/** Supervises server `name` as its config entry says. */
export class Supervisor {
  #entry: ServerEntry;
  #state: ManagedServerState;
  #since = Date.now();
  #reason: string | undefined;
  #nextStartAt: number | undefined;
  #client: McpClient | undefined;
  #target: ManagedTarget | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Bumped whenever a run ends or is abandoned; callbacks of older runs do nothing. */
  #generation = 0;
  #failures: FailureWindow;
  #consecutive = 0;
  #attempts = 0;
  #restarts = 0;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #health: ReturnType<typeof setInterval> | undefined;
  #usedVerdict = false;

  constructor(
    readonly name: string,
    entry: ServerEntry,
    private readonly host: SupervisorHost,
  ) {
    this.#entry = entry;
    this.#state = entry.enabled ? 'stopped' : 'disabled';
    this.#failures = new FailureWindow(entry.restart);
  }

  get entry(): ServerEntry {
    return this.#entry;
  }

  get client(): McpClient | undefined {
    return this.#state === 'running' ? this.#client : undefined;
  }

  status(): ManagedServerStatus {
    const status: ManagedServerStatus = {
      name: this.name,
      state: this.#state,
      type: this.#entry.type,
      tools: this.host.provider.assignments().filter((a) => a.server === this.name).length,
      restarts: this.#restarts,
      recentFailures: this.#failures.count(Date.now()),
      since: new Date(this.#since).toISOString(),
    };
    const client = this.client;
    if (client) {
      const { era, protocolVersion, transport } = client.verdict;
      Object.assign(status, { era, protocolVersion, transport });
      const pid = this.#target?.pid();
      if (pid !== undefined) status.pid = pid;
    }
    if (this.#reason !== undefined) status.reason = this.#reason;
    if (this.#nextStartAt !== undefined) {
      status.nextStartAt = new Date(this.#nextStartAt).toISOString();
    }
    return status;
  }

  /** Starts the server unless it runs, is starting or is disabled; settles after one attempt. */
  start(): Promise<void> {
    return this.#enqueue(async () => {
      if (!this.#entry.enabled || this.#state === 'running') return;
      this.#retire();
      this.#freshCount();
      await this.#attempt(this.#generation);
    });
  }

  /** Stops the server (and any pending restart); `disabled` when its entry is. */
  stop(reason: string): Promise<void> {
    this.#abandonAttempt(reason);
    return this.#enqueue(() => this.#stop(reason));
  }

  /** Stops and starts the server again with a fresh failure count, counting a restart. */
  restart(reason = 'restart requested'): Promise<void> {
    this.#abandonAttempt(reason);
    return this.#enqueue(async () => {
      await this.#stop(reason);
      if (!this.#entry.enabled) return;
      this.#restarts++;
      this.#freshCount();
      await this.#attempt(this.#generation);
    });
  }

  /** Takes a new entry: a running server restarts with it; a disabled one stops. */
  update(entry: ServerEntry): Promise<void> {
    this.#abandonAttempt('its entry changed');
    return this.#enqueue(async () => {
      const wasActive = this.#state !== 'stopped' && this.#state !== 'disabled';
      await this.#stop('its entry changed');
      this.#entry = entry;
      this.#failures = new FailureWindow(entry.restart);
      this.#consecutive = 0;
      if (!entry.enabled) return this.#enter('disabled', 'disabled in the config');
      if (wasActive) {
        this.#restarts++;
        await this.#attempt(this.#generation);
      }
    });
  }

  /** An attempt in flight is given up at once, so stopping never waits for a hung server. */
  #abandonAttempt(reason: string): void {
    if (this.#state !== 'starting') return;
    this.#retire();
    this.#target?.abort(new LocalError(LocalErrorCode.ConnectionClosed, `stopped: ${reason}`));
  }

  #freshCount(): void {
    this.#failures.reset();
    this.#consecutive = 0;
  }

  #enqueue(operation: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(operation);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #stop(reason: string): Promise<void> {
    const wasUp = this.#state === 'running' || this.#state === 'starting';
    this.#retire();
    this.#target?.abort(new LocalError(LocalErrorCode.ConnectionClosed, `stopped: ${reason}`));
    await this.host.provider.detach(this.name, reason);
    if (this.#client) this.#keepVerdict(this.#client);
    this.#client = undefined;
    this.#target = undefined;
    if (this.#entry.enabled) this.#enter('stopped', reason);
    else this.#enter('disabled', 'disabled in the config');
    if (wasUp) this.host.emit({ type: 'server-stopped', server: this.name, reason });
  }

  /** Ends the current run's timers and callbacks. */
  #retire(): void {
    this.#generation++;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#health) clearInterval(this.#health);
    this.#health = undefined;
    this.#nextStartAt = undefined;
  }

  async #attempt(generation: number): Promise<void> {
    this.#attempts++;
    this.#enter('starting');
    this.host.emit({ type: 'server-starting', server: this.name, attempt: this.#attempts });
    const budgetMs = this.#entry.connectTimeoutMs;
    let target: ManagedTarget;
    try {
      target = managedTarget(this.name, this.#entry, this.host.targetContext(this.name));
    } catch (error) {
      return this.#failed('start', asError(error), generation);
    }
    this.#target = target;
    const budget = setTimeout(() => {
      const message = `${this.name}: connecting took longer than ${budgetMs} ms`;
      target.abort(new LocalError(LocalErrorCode.RequestTimeout, message));
    }, budgetMs);
    let client: McpClient;
    try {
      client = await this.#connect(target, budgetMs);
    } catch (error) {
      clearTimeout(budget);
      return this.#failed('start', asError(error), generation);
    } finally {
      clearTimeout(budget);
    }
    if (generation !== this.#generation) {
      await this.host.provider.detach(this.name, 'abandoned');
      return;
    }
    this.#client = client;
    this.#running(client, generation);
  }

  /** Connects with the stored verdict; when that fails, drops it and probes once more. */
  async #connect(target: ManagedTarget, budgetMs: number): Promise<McpClient> {
    const stored = this.host.storedVerdict(this.name);
    const { verdict, dropped } = reusableVerdict(
      stored,
      this.#entry,
      target.target.key,
      Date.now(),
    );
    if (dropped !== undefined) this.#dropVerdict(dropped);
    const known = verdict ?? this.#impliedVerdict(target.target.key);
    try {
      return await this.#connectWith(target, budgetMs, known);
    } catch (error) {
      if (verdict === undefined || !retryable(error)) throw error;
      this.#dropVerdict(`connecting with it failed: ${asError(error).message}`);
      return this.#connectWith(target, budgetMs, undefined);
    }
  }

  async #connectWith(
    target: ManagedTarget,
    budgetMs: number,
    verdict: EraVerdict | undefined,
  ): Promise<McpClient> {
    const entry = this.#entry;
    const client = await this.host.provider.connect(this.name, target.target, {
      ...(entry.tools === undefined ? {} : { filter: entry.tools }),
      client: {
        ...this.host.clientOptions,
        era: entry.era,
        connectTimeoutMs: budgetMs,
        ...(entry.protocolVersion === undefined ? {} : { protocolVersion: entry.protocolVersion }),
        ...(verdict === undefined ? {} : { verdict }),
      },
    });
    this.#usedVerdict = verdict !== undefined;
    return client;
  }

  /** An `sse` entry is a 2024-11-05 server: no need to probe the newer transports first. */
  #impliedVerdict(serverKey: string): EraVerdict | undefined {
    if (this.#entry.type !== 'sse' || this.#entry.era === 'modern') return undefined;
    return { era: 'legacy', protocolVersion: '2024-11-05', transport: 'http+sse', serverKey };
  }

  #running(client: McpClient, generation: number): void {
    this.#enter('running');
    const { era, protocolVersion, transport } = client.verdict;
    this.host.emit({
      type: 'server-started',
      server: this.name,
      era,
      protocolVersion,
      transport,
      tools: this.status().tools,
      usedVerdict: this.#usedVerdict,
    });
    this.#keepVerdict(client);
    client.onClose((cause) => {
      if (generation !== this.#generation) return;
      void this.#enqueue(() => this.#ended(cause, generation));
    });
    this.#schedule(this.#entry.restart.stableAfterMs, generation, async () => {
      // Sustained uptime: the server has earned a fresh count.
      this.#consecutive = 0;
      this.#failures.reset();
    });
    const period = this.#entry.healthIntervalMs;
    if (period > 0) {
      this.#health = setInterval(() => {
        void this.#enqueue(() => this.#check(client, generation, period));
      }, period);
      this.#health.unref?.();
    }
  }

  async #check(client: McpClient, generation: number, period: number): Promise<void> {
    if (generation !== this.#generation || client.closed) return;
    try {
      await client.ping({ timeoutMs: Math.min(period, MAX_HEALTH_TIMEOUT_MS) });
    } catch (error) {
      if (generation !== this.#generation) return;
      const failure = asError(error);
      this.host.emit({ type: 'health-check-failed', server: this.name, error: failure });
      this.#retire();
      // Leave 'running' before the tools go (closing can take a while); the restart this
      // schedules runs through the queue, so after the detach.
      await this.#failed('health', failure, this.#generation);
      await this.host.provider.detach(this.name, `liveness check failed: ${failure.message}`);
    }
  }

  /** The connection ended on its own: a clean exit or a failure, each by the policy. */
  async #ended(cause: Error | undefined, generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    const exit = exitOf(cause);
    this.#retire();
    if (this.#client) this.#keepVerdict(this.#client);
    const clean = exit !== undefined && exit.exitCode === 0 && exit.signal === null;
    if (exit !== undefined) this.host.emit({ type: 'server-exited', server: this.name, ...exit });
    if (clean && this.#entry.restart.mode !== 'always') {
      return this.#enter('stopped', 'exited with code 0');
    }
    const error =
      cause ?? new LocalError(LocalErrorCode.ConnectionClosed, 'the connection to it ended');
    await this.#failed('run', error, this.#generation);
  }

  async #failed(phase: FailurePhase, error: Error, generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    this.#client = undefined;
    const policy = this.#entry.restart;
    const retry = retryable(error) && policy.mode !== 'never';
    const what =
      phase === 'start' ? 'failed to start' : phase === 'run' ? 'stopped' : 'stopped answering';
    this.host.log(`server ${JSON.stringify(this.name)} ${what}: ${error.message}`);
    this.host.emit({ type: 'server-failed', server: this.name, phase, error, retry });
    if (!retry) return this.#enter('failed', error.message);
    const now = Date.now();
    const failures = this.#failures.record(now);
    if (failures >= policy.maxFailures) {
      const reason = `crash loop: ${failures} failures within ${policy.windowMs} ms (last: ${error.message})`;
      this.host.log(`server ${JSON.stringify(this.name)} is not restarted again: ${reason}`);
      this.host.emit({
        type: 'crash-loop',
        server: this.name,
        failures,
        windowMs: policy.windowMs,
      });
      return this.#enter('failed', reason);
    }
    this.#consecutive++;
    const delayMs = restartDelay(policy, this.#consecutive, () => this.host.random());
    this.#enter('backoff', error.message);
    this.#nextStartAt = now + delayMs;
    this.host.emit({
      type: 'restart-scheduled',
      server: this.name,
      delayMs,
      attempt: this.#attempts + 1,
    });
    this.#schedule(delayMs, this.#generation, () => {
      this.#restarts++;
      this.#nextStartAt = undefined;
      return this.#attempt(this.#generation);
    });
  }

  /** Runs `task` through the queue after `ms`, unless the run it belongs to has ended. */
  #schedule(ms: number, generation: number, task: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#enqueue(async () => {
        if (generation === this.#generation) await task();
      });
    }, ms);
    this.#timers.add(timer);
  }

  #enter(state: ManagedServerState, reason?: string): void {
    this.#state = state;
    this.#since = Date.now();
    this.#reason = reason;
  }

  #keepVerdict(client: McpClient): void {
    const stored = storableVerdict(client.verdict, this.#entry, Date.now());
    if (stored === undefined) {
      this.#dropVerdict('it was reached by a silent probe');
      return;
    }
    if (sameStoredVerdict(this.host.storedVerdict(this.name), stored)) return;
    this.host.saveVerdict(this.name, stored);
    const { era, protocolVersion } = stored.verdict;
    this.host.emit({ type: 'verdict-saved', server: this.name, era, protocolVersion });
  }

  #dropVerdict(reason: string): void {
    if (this.host.storedVerdict(this.name) === undefined) return;
    this.host.saveVerdict(this.name, undefined);
    this.host.emit({ type: 'verdict-dropped', server: this.name, reason });
  }
}
