/**
 * Interop test environment: stdio targets that remember every process they start, HTTP
 * endpoints that count their open sockets, and an after-each check that every client is
 * closed, no server process is left alive and every endpoint closed cleanly.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioClientTransport } from '@twofold/transports/node';
import { afterEach } from 'vitest';
import {
  expectNoLeftovers,
  leftovers,
  pidsOf,
  type TrackedStdio as Tracked,
  trackStdio,
} from '../../../../config/test-support/processes.ts';
import {
  referenceEverythingLaunch,
  twofoldEverythingLaunch,
} from '../../../../config/test-support/servers.ts';
import { McpClient } from '../../src/client';
import { type StdioServerOptions, stdioServer } from '../../src/node';
import type { McpClientOptions, ServerTarget } from '../../src/types';

/** The client name every interop client sends. */
export const CLIENT_INFO = { name: 'twofold-interop', version: '0.0.0' };

/** Generous per-test timeout: real processes and real sockets. */
export const INTEROP_TIMEOUT = 30_000;

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/interop/', import.meta.url));

/** A stdio target that records the transports (hence the processes) it opens. */
export type TrackedStdio = Tracked<StdioClientTransport>;

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
    const found = await leftovers(pidsOf(stdio.splice(0).flatMap((tracked) => tracked.opened)));
    // Endpoints close even when a process leaked, so the next test starts clean.
    for (const endpoint of endpoints.splice(0).reverse()) await endpoint.close();
    expectNoLeftovers(found, 'server');
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
  const tracked = trackStdio<StdioClientTransport>((stderr) =>
    stdioServer({ closeTimeouts: { stdinEndMs: 2000, sigtermMs: 2000 }, ...options, stderr }),
  );
  stdio.push(tracked);
  return tracked;
}

/** A `.mjs` fixture of this suite, run with this Node. */
export function fixtureServer(file: string, args: string[] = []): StdioServerOptions {
  return { command: process.execPath, args: [join(FIXTURES, file), ...args], cwd: PACKAGE_DIR };
}

/** The installed `@modelcontextprotocol/server-everything` on stdio (no npx). */
export function referenceEverything(): StdioServerOptions {
  return { ...referenceEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}

/** twofold's everything server (apps/everything-server) on stdio, run from source with tsx. */
export function twofoldEverything(): StdioServerOptions {
  return { ...twofoldEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}
