/**
 * Process-leak checks shared by the packages' tests (test-only; imported by relative path):
 * stdio targets that remember the transports, hence the processes, they open; whether a process
 * or process group still exists; what of a test's servers outlived it; a child's whole output;
 * gates a test opens.
 */
import { type ChildProcessByStdio, execFileSync } from 'node:child_process';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';

/** A `stream` server target, structurally (what `stdioServer()` of `@twofold/client/node` builds). */
export interface StreamTarget<T> {
  kind: 'stream';
  key: string;
  open(): T;
}

/** What the checks need of a target: `ServerTarget` of `@twofold/client` fits. */
interface AnyTarget {
  kind: string;
  key: string;
  open(...args: never[]): unknown;
}

/** `base`, a stream target, with every transport it opens pushed to `opened`. */
export function recordingTarget<T>(base: AnyTarget, opened: T[]): StreamTarget<T> {
  if (base.kind !== 'stream') throw new Error('stdioServer() built a non-stream target');
  return {
    kind: 'stream',
    key: base.key,
    open: () => {
      const transport = base.open() as T;
      opened.push(transport);
      return transport;
    },
  };
}

/** A stdio target that records the transports (hence the processes) it opens. */
export interface TrackedStdio<T extends { readonly pid?: number | undefined }> {
  target: StreamTarget<T>;
  /** Every transport opened so far, in order. */
  readonly opened: T[];
  /** The pid of the newest process. */
  pid(): number;
  /** Server stderr, all processes. */
  stderr(): string;
}

/** Tracks the target `build` makes, given the sink its servers' stderr should go to. */
export function trackStdio<T extends { readonly pid?: number | undefined }>(
  build: (stderr: (chunk: string) => void) => AnyTarget,
): TrackedStdio<T> {
  const opened: T[] = [];
  const chunks: string[] = [];
  return {
    target: recordingTarget(
      build((chunk) => chunks.push(chunk)),
      opened,
    ),
    opened,
    pid: () => {
      const pid = opened.at(-1)?.pid;
      if (pid === undefined) throw new Error('no server process was started');
      return pid;
    },
    stderr: () => chunks.join(''),
  };
}

/** The pids of the processes behind `transports` (one that never started has none). */
export function pidsOf(transports: readonly { readonly pid?: number | undefined }[]): number[] {
  return transports.flatMap(({ pid }) => (pid === undefined ? [] : [pid]));
}

/** Whether a process (or, with a negative id, a process group) still exists. */
export function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Polls `condition` every `intervalMs` until it holds; rejects after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What of a test's processes outlived it. */
export interface Leftovers {
  processes: number[];
  /** Process groups (by leader pid) with a member still alive; always empty on Windows. */
  groups: number[];
}

/** What of `pids` is still alive: processes at once, process groups after a bounded wait. */
export async function leftovers(pids: readonly number[]): Promise<Leftovers> {
  // A server is reaped before its transport's close() resolves: no waiting for it.
  const processes = pids.filter((pid) => signalable(pid));
  if (process.platform === 'win32') return { processes, groups: [] };
  // What a server spawned (tsx's esbuild service, say) goes down with its group a moment later.
  await until(() => !pids.some((pid) => signalable(-pid)), 'process groups to end').catch(
    () => undefined,
  );
  return { processes, groups: pids.filter((pid) => signalable(-pid)) };
}

/** Fails the test when `found` is not empty; `what` names the processes ("server"). */
export function expectNoLeftovers(found: Leftovers, what: string): void {
  expect(found.processes, `${what} processes left alive`).toEqual([]);
  expect(found.groups, `${what} process groups left alive`).toEqual([]);
}

/** This process's children whose command line contains `text` (POSIX `ps`), as `pid args`. */
export function childProcesses(text: string): string[] {
  if (process.platform === 'win32') return [];
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === process.pid && args.join(' ').includes(text))
    .map(([pid, , ...args]) => `${pid} ${args.join(' ')}`);
}

/** How a child process ended, with everything it wrote. */
export interface ChildExit {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's stdout and stderr; resolves once it has closed them and exited. */
export function childExit(
  child: ChildProcessByStdio<null, Readable, Readable>,
): Promise<ChildExit> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A promise the test opens when it chooses: a handler waits on `wait` until `open()`. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
