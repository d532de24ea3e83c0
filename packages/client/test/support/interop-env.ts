/**
 * Interop test environment: stdio targets that remember every process they start, HTTP
 * endpoints that count their open sockets, and an after-each check that every client is
 * closed, no server process is left alive and every endpoint closed cleanly.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { StdioClientTransport } from '@twofold/transports/stdio';
import { afterEach, expect } from 'vitest';
import { McpClient } from '../../src/client';
import { type StdioServerOptions, stdioServer } from '../../src/node';
import type { McpClientOptions, ServerTarget } from '../../src/types';

/** The client name every interop client sends. */
export const CLIENT_INFO = { name: 'twofold-interop', version: '0.0.0' };

/** Generous per-test timeout: real processes and real sockets. */
export const INTEROP_TIMEOUT = 30_000;

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/interop/', import.meta.url));
const require = createRequire(import.meta.url);

/** A stdio target that records the transports (hence the processes) it opens. */
export interface TrackedStdio {
  target: ServerTarget;
  /** Every transport opened so far, in order. */
  readonly opened: StdioClientTransport[];
  /** Server stderr, all processes. */
  stderr(): string;
}

interface Endpoint {
  close(): Promise<void>;
}

const clients: McpClient[] = [];
const stdio: TrackedStdio[] = [];
const endpoints: Endpoint[] = [];

/** Closes the file's clients after each test, then checks processes and endpoints. */
export function useInterop(): void {
  afterEach(async () => {
    for (const client of clients.splice(0).reverse()) await client.close();
    const pids = stdio.splice(0).flatMap((tracked) => tracked.opened.map((t) => t.pid));
    const started = pids.filter((pid): pid is number => pid !== undefined);
    // The server itself is reaped before its transport's close() resolves.
    const alive = started.filter((pid) => signalable(pid));
    // What it spawned (tsx's esbuild service, say) was SIGKILLed with its group: let it go.
    const groups = await groupsStillAlive(started);
    for (const endpoint of endpoints.splice(0).reverse()) await endpoint.close();
    expect(alive, 'server processes left alive').toEqual([]);
    expect(groups, 'server process groups left alive').toEqual([]);
  });
}

/** Connects a client and closes it after the test. */
export async function connectClient(
  target: ServerTarget,
  options: Partial<McpClientOptions> = {},
): Promise<McpClient> {
  const client = await McpClient.connect(target, { clientInfo: CLIENT_INFO, ...options });
  clients.push(client);
  return client;
}

/** Closes `endpoint` after the test (after its clients). */
export function closeAfterTest<T extends Endpoint>(endpoint: T): T {
  endpoints.push(endpoint);
  return endpoint;
}

/** A stdio target whose processes the after-each check looks for. */
export function trackedStdio(options: StdioServerOptions): TrackedStdio {
  const opened: StdioClientTransport[] = [];
  const chunks: string[] = [];
  const base = stdioServer({
    closeTimeouts: { stdinEndMs: 2000, sigtermMs: 2000 },
    ...options,
    stderr: (chunk) => chunks.push(chunk),
  });
  if (base.kind !== 'stream') throw new Error('stdioServer() built a non-stream target');
  const tracked: TrackedStdio = {
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
    stderr: () => chunks.join(''),
  };
  stdio.push(tracked);
  return tracked;
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
  for (let attempt = 0; attempt < 100; attempt++) {
    if (!pids.some((pid) => signalable(-pid))) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.filter((pid) => signalable(-pid));
}

/** A `.mjs` fixture of this suite, run with this Node. */
export function fixtureServer(file: string, args: string[] = []): StdioServerOptions {
  return { command: process.execPath, args: [join(FIXTURES, file), ...args], cwd: PACKAGE_DIR };
}

/** The installed `@modelcontextprotocol/server-everything` on stdio (no npx). */
export function referenceEverything(): StdioServerOptions {
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const entry = join(dirname(manifest), bin['mcp-server-everything'] as string);
  return { command: process.execPath, args: [entry, 'stdio'], cwd: PACKAGE_DIR };
}

/** twofold's everything server (apps/everything-server) on stdio, run from source with tsx. */
export function twofoldEverything(): StdioServerOptions {
  const main = fileURLToPath(
    new URL('../../../../apps/everything-server/src/main.ts', import.meta.url),
  );
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return {
    command: process.execPath,
    args: ['--import', tsx, main, '--stdio'],
    cwd: PACKAGE_DIR,
  };
}
