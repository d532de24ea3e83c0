/**
 * The stdio client transport: spawns an MCP server and speaks newline-delimited JSON-RPC over
 * its stdin/stdout. No shell is involved (cross-spawn resolves Windows `.cmd`/`.bat` shims such
 * as `npx.cmd` and quotes arguments safely), the child gets an allow-listed environment, its
 * stderr is kept in a bounded ring, and stopping it takes its whole process group along.
 */
import type { ChildProcess, spawn } from 'node:child_process';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { buildChildEnv } from './child-env';
import { type StopSignal, signalProcessGroup } from './process-group';
import { DEFAULT_STDERR_TAIL_BYTES, StderrRing } from './stderr-ring';
import { type NdjsonStreamOptions, NdjsonStreamTransport } from './stream-transport';

/**
 * How long each step of stopping a server may take, in milliseconds.
 *
 * @experimental
 */
export interface StdioCloseTimeouts {
  /** After closing the server's stdin, how long to wait for it to exit (default 2000). */
  stdinEndMs?: number;
  /** After SIGTERM to its process group, how long to wait before SIGKILL (default 2000). */
  sigtermMs?: number;
  /**
   * After the server exited, how long to wait for its stdout/stderr to reach end of file
   * before closing anyway (default 2000). Only matters when a process outside its group
   * still holds the pipes.
   */
  outputDrainMs?: number;
}

/**
 * Options of {@link StdioClientTransport}.
 *
 * @experimental
 */
export interface StdioClientTransportOptions extends NdjsonStreamOptions {
  /** The program to run (looked up on `PATH`; no shell). */
  command: string;
  /** Its arguments, passed as they are (never parsed by a shell). */
  args?: readonly string[];
  /**
   * Variables set for the server, over the default allow-list (`DEFAULT_INHERITED_ENV_VARS`).
   * `undefined` removes a variable.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Pass this process's whole environment instead of the allow-list (default false). */
  inheritEnv?: boolean;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** Receives the server's stderr as it arrives, decoded as UTF-8. */
  stderr?: (chunk: string) => void;
  /** How many bytes of stderr to keep for `stderrTail()` and exit errors (default 64 KiB). */
  stderrTailBytes?: number;
  /** Timeouts of the steps of `close()`. */
  closeTimeouts?: StdioCloseTimeouts;
}

/**
 * How the server process ended.
 *
 * @experimental
 */
export interface StdioExitInfo {
  /** The exit code, or null when a signal ended the process or it never started. */
  exitCode: number | null;
  /** The signal that ended the process, if one did. */
  signal: string | null;
  /** The last bytes (at most `stderrTailBytes`) of its stderr. */
  stderrTail: string;
}

const DEFAULT_STEP_MS = 2000;

/**
 * Spawns an MCP server and exchanges messages with it over stdio.
 *
 * When the server exits (or cannot be spawned) without `close()` having been called, `onerror`
 * receives a `LocalError` with code `PROCESS_EXITED` whose `details` are the
 * {@link StdioExitInfo}, then `onclose` runs. `close()` ends the server's stdin, waits, then
 * sends SIGTERM and finally SIGKILL to its process group, and resolves once it has exited.
 * Whenever the server exits, what is left of its process group is killed, so no grandchild
 * outlives it holding the pipes.
 *
 * @experimental
 */
export class StdioClientTransport extends NdjsonStreamTransport {
  private readonly options: StdioClientTransportOptions;
  private readonly ring: StderrRing;
  private readonly stderrDecoder = new TextDecoder('utf-8');
  private child: ChildProcess | undefined;
  private exit: StdioExitInfo | undefined;
  private closeRequested = false;
  private stopping: Promise<void> | undefined;

  constructor(options: StdioClientTransportOptions) {
    super(options);
    this.options = options;
    this.ring = new StderrRing(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
  }

  /** The server's process id, once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the server ended, once it has (and its pipes are closed). */
  get exitInfo(): StdioExitInfo | undefined {
    return this.exit;
  }

  /** The last bytes of the server's stderr, as text. */
  stderrTail(): string {
    return this.ring.text();
  }

  async start(): Promise<void> {
    this.beginStart();
    const { command, args = [], cwd, env, inheritEnv = false } = this.options;
    // Loaded on the first start, not at import: a server importing this entry never spawns.
    const run =
      process.platform === 'win32'
        ? await windowsSpawn()
        : (await import('node:child_process')).spawn;
    const child = run(command, [...args], {
      cwd,
      env: buildChildEnv(process.env, env, inheritEnv),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group (POSIX), so stopping it reaches its children too.
      detached: process.platform !== 'win32',
      windowsHide: true,
      shell: false,
    });
    this.child = child;
    const spawnError = await new Promise<unknown>((resolve) => {
      const onSpawn = () => {
        child.off('error', onError);
        resolve(undefined);
      };
      const onError = (error: unknown) => {
        child.off('spawn', onSpawn);
        resolve(error);
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
    if (spawnError !== undefined) {
      const error = this.exited(null, null, spawnError);
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      this.finish(error);
      throw error;
    }
    this.watch(child);
  }

  async close(): Promise<void> {
    if (!this.closeRequested) {
      this.closeRequested = true;
      this.beginClose();
      if (this.child === undefined) this.finish();
      else void this.stop();
    }
    await this.closed;
  }

  private watch(child: ChildProcess): void {
    const { stdin, stdout, stderr } = child as ChildProcess & {
      stdin: NonNullable<ChildProcess['stdin']>;
      stdout: NonNullable<ChildProcess['stdout']>;
      stderr: NonNullable<ChildProcess['stderr']>;
    };
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    const onStderr = (chunk: Uint8Array) => {
      this.ring.push(chunk);
      const text = this.stderrDecoder.decode(chunk, { stream: true });
      if (text !== '') this.options.stderr?.(text);
    };
    // A write to a server that has gone fails with EPIPE; the exit path reports that, and
    // pending sends reject on their own (see LineWriter).
    const onStdinError = () => {};
    const onChildError = (error: Error) => this.report(error);
    const onExit = (code: number | null, signal: string | null) => {
      exitCode = code;
      exitSignal = signal;
      // Whatever the server left running in its group would keep the pipes open: stop it.
      this.signal('SIGKILL');
      const drainMs = this.options.closeTimeouts?.outputDrainMs ?? DEFAULT_STEP_MS;
      drainTimer = setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
      }, drainMs);
    };
    const onClose = () => {
      clearTimeout(drainTimer);
      const tail = this.stderrDecoder.decode();
      if (tail !== '') this.options.stderr?.(tail);
      const error = this.exited(exitCode, exitSignal);
      this.finish(this.closeRequested ? undefined : error);
    };
    stderr.on('data', onStderr);
    stdin.on('error', onStdinError);
    child.on('error', onChildError);
    child.once('exit', onExit);
    child.once('close', onClose);
    this.onFinish(() => {
      clearTimeout(drainTimer);
      stderr.off('data', onStderr);
      child.off('error', onChildError);
      child.off('exit', onExit);
      child.off('close', onClose);
      stdin.destroy();
    });
    // The server closing its stdout ends the conversation: stop it like close() would, but
    // its exit is then reported as unexpected.
    this.open(stdout, stdin, () => this.stop());
  }

  /** Records the exit and builds the error that reports it. */
  private exited(exitCode: number | null, signal: string | null, cause?: unknown): LocalError {
    const stderrTail = this.ring.text();
    this.exit = { exitCode, signal, stderrTail };
    const how =
      cause !== undefined
        ? `could not be started (${cause instanceof Error ? cause.message : String(cause)})`
        : signal !== null
          ? `was terminated by ${signal}`
          : `exited with code ${exitCode}`;
    const lastLine = stderrTail.trimEnd().split('\n').pop()?.slice(-200) ?? '';
    const message = `MCP server process ${how}${lastLine ? `; stderr: ${lastLine}` : ''}`;
    return new LocalError(LocalErrorCode.ProcessExited, message, {
      cause,
      details: { ...this.exit, command: this.options.command },
    });
  }

  /** Stops the server, escalating step by step; settles when it has exited. */
  private stop(): Promise<void> {
    this.stopping ??= this.escalate();
    return this.stopping;
  }

  private async escalate(): Promise<void> {
    const timeouts = this.options.closeTimeouts;
    this.flushBatch();
    this.child?.stdin?.end();
    if (await this.closedWithin(timeouts?.stdinEndMs ?? DEFAULT_STEP_MS)) return;
    this.signal('SIGTERM');
    if (await this.closedWithin(timeouts?.sigtermMs ?? DEFAULT_STEP_MS)) return;
    this.signal('SIGKILL');
    await this.closed;
  }

  /** Whether the transport closes within `ms` (the timer never outlives the wait). */
  private closedWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([this.closed.then(() => true), timeout]).finally(() => clearTimeout(timer));
  }

  private signal(signal: StopSignal): void {
    const child = this.child;
    if (child?.pid === undefined) return;
    try {
      signalProcessGroup(child.pid, signal);
      // Windows has no groups (and POSIX needs no second signal): reach the child itself too.
      if (process.platform === 'win32') child.kill(signal);
    } catch (error) {
      // Not ours to signal (EPERM): say so, and let the remaining steps and timeouts run.
      this.report(error as Error);
    }
  }
}

/**
 * cross-spawn, for Windows `.cmd` shims and argument quoting. Elsewhere it only calls `spawn`,
 * so it is loaded on Windows alone and stays out of every other program's import.
 */
async function windowsSpawn(): Promise<typeof spawn> {
  return (await import('cross-spawn')).default as typeof spawn;
}
