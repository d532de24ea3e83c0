/**
 * The bridge tests' environment: upstream stdio servers whose processes are remembered,
 * bridges and clients closed after each test (newest first), and an after-each check that no
 * server process or process group is left alive.
 */
import { fileURLToPath } from 'node:url';
import { McpClient, type McpClientOptions, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, type StdioServerOptions, stdioServer } from '@twofold/client/node';
import type { StdioClientTransport } from '@twofold/transports/node';
import { afterEach } from 'vitest';
import {
  expectNoLeftovers,
  leftovers,
  pidsOf,
  recordingTarget,
  until,
} from '../../../../../config/test-support/processes.ts';
import {
  referenceEverythingLaunch,
  tsxLoader,
  twofoldEverythingLaunch,
} from '../../../../../config/test-support/servers.ts';
import {
  type HttpBridge,
  type HttpBridgeOptions,
  startHttpBridge,
} from '../../../src/bridge/index';

/** Per-test timeout: real processes and real sockets. */
export const BRIDGE_TIMEOUT = 30_000;

/** The URI of the probe server's one resource. */
export const NOTE_URI = 'probe://note';

export type Era = 'modern' | 'legacy';

/** Every pairing of a downstream client's era with the upstream server's. */
export const COMBINATIONS: readonly { downstream: Era; upstream: Era }[] = [
  { downstream: 'modern', upstream: 'legacy' },
  { downstream: 'modern', upstream: 'modern' },
  { downstream: 'legacy', upstream: 'legacy' },
  { downstream: 'legacy', upstream: 'modern' },
];

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const TSX = tsxLoader(import.meta.url);

const closers: (() => Promise<unknown>)[] = [];
const transports: StdioClientTransport[] = [];

/** Closes what the test opened, then checks that every upstream process is gone. */
export function useBridgeEnv(): void {
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    expectNoLeftovers(await leftovers(pidsOf(transports.splice(0))), 'upstream');
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
  return recordingTarget(base, transports);
}

/** `@modelcontextprotocol/server-everything` on stdio: a legacy server built by others. */
export function referenceEverything(): ServerTarget {
  return trackedUpstream({ ...referenceEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR });
}

/** twofold's everything server (apps/everything-server), dual-era, on stdio via tsx. */
export function twofoldEverything(): ServerTarget {
  return trackedUpstream({ ...twofoldEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR });
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

/** `startHttpBridge` on a free loopback port, closed after the test. */
export async function loopbackBridge(
  options: Omit<HttpBridgeOptions, 'listen'>,
): Promise<HttpBridge> {
  return closeAfterTest(
    await startHttpBridge({ ...options, listen: { host: '127.0.0.1', port: 0 } }),
  );
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
export function eventually(
  predicate: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<void> {
  return until(predicate, 'the condition', ms, 10);
}
