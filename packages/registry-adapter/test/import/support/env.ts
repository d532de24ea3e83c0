/**
 * Test environment of the import tests: cleanups that run after each test (providers, HTTP
 * endpoints, served connections), stdio targets that remember every process they start, and an
 * after-each check that no server process (nor its process group) is left alive.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerTarget } from '@twofold/client/experimental';
import { type StdioServerOptions, stdioServer } from '@twofold/client/node';
import type { StdioClientTransport } from '@twofold/transports/stdio';
import { afterEach, expect } from 'vitest';

/** Per-test timeout of tests that start real processes. */
export const PROCESS_TIMEOUT = 20_000;

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const require = createRequire(import.meta.url);

const cleanups: (() => Promise<unknown> | unknown)[] = [];
const tracked: TrackedStdio[] = [];

/** A stdio target that records the transports (hence the processes) it opens. */
export interface TrackedStdio {
  target: ServerTarget;
  /** Every transport opened so far, in order. */
  readonly opened: StdioClientTransport[];
  /** The pid of the newest process. */
  pid(): number;
  /** Server stderr, all processes. */
  stderr(): string;
}

/** Runs `cleanup` after the current test, before the process check (last added runs first). */
export function afterTest(cleanup: () => Promise<unknown> | unknown): void {
  cleanups.push(cleanup);
}

/** Registers the after-each hook: cleanups, then "no process left alive". */
export function useImportEnv(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    }
    const started = tracked
      .splice(0)
      .flatMap((t) => t.opened.map((transport) => transport.pid))
      .filter((pid): pid is number => pid !== undefined);
    // A server is reaped before its transport's close() resolves: no waiting for it.
    const alive = started.filter((pid) => signalable(pid));
    const groups = await groupsStillAlive(started);
    expect(alive, 'server processes left alive').toEqual([]);
    expect(groups, 'server process groups left alive').toEqual([]);
  });
}

/** A stdio target whose processes the after-each check looks for. */
export function trackedStdio(options: StdioServerOptions): TrackedStdio {
  const opened: StdioClientTransport[] = [];
  const chunks: string[] = [];
  const base = stdioServer({
    closeTimeouts: { stdinEndMs: 1000, sigtermMs: 1000, outputDrainMs: 1000 },
    ...options,
    stderr: (chunk) => chunks.push(chunk),
  });
  if (base.kind !== 'stream') throw new Error('stdioServer() built a non-stream target');
  const result: TrackedStdio = {
    target: {
      kind: 'stream',
      key: base.key,
      open: () => {
        const transport = base.open() as StdioClientTransport;
        opened.push(transport);
        return transport;
      },
    },
    opened,
    pid: () => {
      const pid = opened.at(-1)?.pid;
      if (pid === undefined) throw new Error('no server process was started');
      return pid;
    },
    stderr: () => chunks.join(''),
  };
  tracked.push(result);
  return result;
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

/** The process groups of `pids` still alive after a bounded wait (POSIX only). */
async function groupsStillAlive(pids: number[]): Promise<number[]> {
  if (process.platform === 'win32') return [];
  // What a server spawned (tsx's esbuild service) goes down with its group, a moment later.
  await until(() => !pids.some((pid) => signalable(-pid)), 'process groups to end', 5000).catch(
    () => undefined,
  );
  return pids.filter((pid) => signalable(-pid));
}

/** Polls `condition` every 20 ms until it holds; rejects after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const TSX = pathToFileURL(require.resolve('tsx')).href;

/** A `.ts` fixture of this suite on stdio, run with this Node and tsx. */
export function tsFixture(file: string, args: string[] = []): StdioServerOptions {
  return {
    command: process.execPath,
    args: ['--import', TSX, join(FIXTURES, file), ...args],
    cwd: PACKAGE_DIR,
  };
}

/** twofold's everything server (apps/everything-server) on stdio, run from source with tsx. */
export function twofoldEverything(): StdioServerOptions {
  const main = fileURLToPath(
    new URL('../../../../../apps/everything-server/src/main.ts', import.meta.url),
  );
  return { command: process.execPath, args: ['--import', TSX, main, '--stdio'], cwd: PACKAGE_DIR };
}

/** The installed `@modelcontextprotocol/server-everything` on stdio (no npx). */
export function referenceEverything(): StdioServerOptions {
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const entry = join(dirname(manifest), bin['mcp-server-everything'] as string);
  return { command: process.execPath, args: [entry, 'stdio'], cwd: PACKAGE_DIR };
}
