/**
 * The benchmark's handle on a client driver process (`impls/clients/*.mjs`): spawns it with
 * `--expose-gc` and an IPC channel, sends it one command at a time and awaits the answer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { BENCH_DIR } from './impls';

interface Answer {
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  ready?: boolean;
}

/** A warning a client library raised in a driver, and how often. */
export interface ProcessWarning {
  process: string;
  warning: string;
  count: number;
}

/** Every warning the drivers of this run reported when they closed. */
export const processWarnings: ProcessWarning[] = [];

/** A running client driver. */
export class DriverProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  private exitReason: string | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (answer: Answer) => {
      if (answer.id === undefined) return;
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
    child.once('exit', (code, signal) => {
      this.exitReason = `driver ${name} exited (${signal ?? code})`;
      for (const settle of this.waiting.values()) settle({ ok: false, error: this.exitReason });
      this.waiting.clear();
    });
  }

  /**
   * Starts the driver `script` (Node run with `nodeArgs` too, through `launcher` when given,
   * for example `taskset -c 1`); resolves once it is ready.
   */
  static async start(
    name: string,
    script: string,
    nodeArgs: readonly string[] = [],
    launcher: readonly string[] = [],
  ): Promise<DriverProcess> {
    const node = [process.execPath, '--expose-gc', '--no-warnings', ...nodeArgs, script];
    const [command = '', ...args] = [...launcher, ...node];
    const child = spawn(command, args, {
      cwd: BENCH_DIR,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Structured clone: latency arrays travel as typed arrays, not JSON.
      serialization: 'advanced',
    });
    const [first] = (await once(child, 'message')) as [Answer];
    if (!first.ready) throw new Error(`driver ${name}: unexpected first message`);
    return new DriverProcess(name, child);
  }

  /** Sends one command; rejects with the driver's error, or after `timeoutMs`. */
  send<T>(op: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
    if (this.exitReason) return Promise.reject(new Error(this.exitReason));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`${this.name}: ${op} got no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.ok) resolve(answer.result as T);
        else reject(new Error(`${this.name}: ${op}: ${answer.error}`));
      });
      this.child.send({ id, op, ...args });
    });
  }

  /** Closes the driver's connection and ends the process. */
  async close(): Promise<void> {
    if (this.exitReason) return;
    const exited = once(this.child, 'exit');
    await this.send('close', {}, 10_000).catch(() => {});
    const warnings = await this.send<{ warning: string; count: number }[]>(
      'warnings',
      {},
      10_000,
    ).catch(() => []);
    for (const w of warnings) processWarnings.push({ process: this.name, ...w });
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill(), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** Starts one driver per entry, in order; closes those already started if one fails. */
export async function startDrivers(
  entries: readonly {
    name: string;
    script: string;
    nodeArgs?: readonly string[];
    launcher?: readonly string[];
  }[],
): Promise<DriverProcess[]> {
  const drivers: DriverProcess[] = [];
  try {
    for (const e of entries) {
      drivers.push(await DriverProcess.start(e.name, e.script, e.nodeArgs, e.launcher));
    }
  } catch (error) {
    await Promise.all(drivers.map((d) => d.close()));
    throw error;
  }
  return drivers;
}
