/**
 * HTTP server fixtures as child processes (`impls/servers/*.mjs --transport http`): each listens
 * on an ephemeral 127.0.0.1 port, announces its URL over IPC and answers `usage` queries there,
 * so the server's CPU per request is measured apart from the load generator's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { BENCH_DIR, type Implementation } from './impls';
import type { ProcessStats } from './stdio-fleet';

/** A running HTTP server fixture. */
export class HttpServerProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (usage: ProcessStats) => void>();

  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (message: { id?: number; usage?: ProcessStats }) => {
      if (message.id === undefined || !message.usage) return;
      this.waiting.get(message.id)?.(message.usage);
      this.waiting.delete(message.id);
    });
  }

  /**
   * Starts `impl`'s server with `tools` tools in `era` (and the fixture's `serverArgs`, Node's
   * `nodeArgs`); resolves once it listens.
   */
  static async start(
    impl: Implementation,
    tools: number,
    era: 'modern' | 'legacy',
    options: { serverArgs?: readonly string[]; nodeArgs?: readonly string[] } = {},
  ): Promise<HttpServerProcess> {
    const args = ['--transport', 'http', '--tools', String(tools), '--era', era];
    const node = ['--expose-gc', ...(options.nodeArgs ?? [])];
    const fixture = [impl.server, ...args, ...(options.serverArgs ?? [])];
    const child = spawn(process.execPath, [...node, ...fixture], {
      cwd: BENCH_DIR,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = once(child, 'exit').then(() => {
      throw new Error(`${impl.label} HTTP server exited before listening`);
    });
    const ready = once(child, 'message') as Promise<[{ ready?: string }]>;
    const [message] = await Promise.race([ready, exited]);
    if (!message.ready) throw new Error(`${impl.label} HTTP server: unexpected first message`);
    return new HttpServerProcess(message.ready, child);
  }

  /** Whether the server process is still alive (a crash shows here). */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the server process ended, if it did. */
  get exit(): string | undefined {
    return this.running ? undefined : `exited (${this.child.signalCode ?? this.child.exitCode})`;
  }

  /** The server's memory and CPU so far (a forced GC first when `gc`). */
  usage(gc = false): Promise<ProcessStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ op: 'usage', id, gc });
    });
  }

  /** Stops the server: it exits when its IPC channel closes. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill(), 5000);
    await exited;
    clearTimeout(timer);
  }
}
