/**
 * The bridge tests' environment: upstream stdio servers whose processes are remembered,
 * bridges and clients closed after each test (newest first), and an after-each check that no
 * server process or process group is left alive.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { McpClient, type McpClientOptions, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, type StdioServerOptions, stdioServer } from '@twofold/client/node';
import type { StdioClientTransport } from '@twofold/transports/stdio';
import { afterEach, expect } from 'vitest';

/** Per-test timeout: real processes and real sockets. */
export const BRIDGE_TIMEOUT = 30_000;

/** The URI of the probe server's one resource. */
export const NOTE_URI = 'probe://note';

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;

const closers: (() => Promise<unknown>)[] = [];
const transports: StdioClientTransport[] = [];

/** Closes what the test opened, then checks that every upstream process is gone. */
export function useBridgeEnv(): void {
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    const pids = transports.splice(0).flatMap((t) => (t.pid === undefined ? [] : [t.pid]));
    expect(
      pids.filter((pid) => signalable(pid)),
      'upstream processes left alive',
    ).toEqual([]);
    expect(await groupsStillAlive(pids), 'upstream process groups left alive').toEqual([]);
  });
}

/** Closes `thing` after the test (before the process check). */
export function closeAfterTest<T extends { close(): Promise<unknown> }>(thing: T): T {
  closers.push(() => thing.close());
  return thing;
}

/** A stdio upstream whose every process the after-each check looks for. */
export function trackedUpstream(options: StdioServerOptions): ServerTarget {
  const base = stdioServer({ closeTimeouts: { stdinEndMs: 2000, sigtermMs: 2000 }, ...options });
  if (base.kind !== 'stream') throw new Error('stdioServer() built a non-stream target');
  return {
    kind: 'stream',
    key: base.key,
    open: () => {
      const transport = base.open() as StdioClientTransport;
      transports.push(transport);
      return transport;
    },
  };
}

/** `@modelcontextprotocol/server-everything` on stdio: a legacy server built by others. */
export function referenceEverything(): ServerTarget {
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const entry = join(dirname(manifest), bin['mcp-server-everything'] as string);
  return trackedUpstream({ command: process.execPath, args: [entry, 'stdio'], cwd: PACKAGE_DIR });
}

/** twofold's everything server (apps/everything-server), dual-era, on stdio via tsx. */
export function twofoldEverything(): ServerTarget {
  const main = fileURLToPath(
    new URL('../../../../../apps/everything-server/src/main.ts', import.meta.url),
  );
  return trackedUpstream({
    command: process.execPath,
    args: ['--import', TSX, main, '--stdio'],
    cwd: PACKAGE_DIR,
  });
}

/** The probe fixture (trace, wait/cancellations, log, touch, crash), dual-era, via tsx. */
export function probeServer(): ServerTarget {
  const main = fileURLToPath(new URL('../fixtures/probe-server.ts', import.meta.url));
  return trackedUpstream({
    command: process.execPath,
    args: ['--import', TSX, main],
    cwd: PACKAGE_DIR,
  });
}

/** A twofold client of the bridge's HTTP endpoint, in `era`, closed after the test. */
export async function downstreamClient(
  url: URL,
  era: 'modern' | 'legacy',
  options: Partial<McpClientOptions> = {},
): Promise<McpClient> {
  const client = await McpClient.connect(httpServer({ url }), {
    clientInfo: { name: 'bridge-downstream', version: '0.0.0' },
    era,
    ...options,
  });
  return closeAfterTest(client);
}

/** The text of a result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** Resolves when `predicate` holds, checking again after a short pause (bounded). */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function signalable(pid: number): boolean {
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
