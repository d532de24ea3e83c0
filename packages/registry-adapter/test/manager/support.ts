/**
 * Manager test environment: a temp directory holding an `mcp.json`, managers that record their
 * events and log lines and are closed after each test, and a check that every process a
 * manager started is gone afterwards.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import {
  childProcesses,
  signalable,
  until as waitUntil,
} from '../../../../config/test-support/processes.ts';
import {
  referenceEverythingLaunch,
  twofoldEverythingLaunch,
} from '../../../../config/test-support/servers.ts';
import { ServerManager } from '../../src/manager/manager';
import type { ManagerEvent, ServerManagerOptions } from '../../src/manager/types';

/** Whether a process still exists. */
export { signalable as alive } from '../../../../config/test-support/processes.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/managed-server.mjs', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** An mcp.json entry for the fixture server with these flags. */
export function fixtureEntry(...flags: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE, ...flags], cwd: PACKAGE_DIR };
}

/** Fast restarts for tests; override per test. */
export const QUICK_RESTART = {
  initialDelayMs: 20,
  maxDelayMs: 100,
  jitter: 0,
  maxFailures: 3,
  windowMs: 60_000,
  stableAfterMs: 60_000,
};

export interface Managed {
  manager: ServerManager;
  events: ManagerEvent[];
  lines: string[];
  path: string;
  /** Every pid any of the manager's servers had while the test looked. */
  pids: Set<number>;
}

const live: Managed[] = [];
const dirs: string[] = [];

/** Closes each test's managers, then checks none of their processes survived. */
export function useManagers(): void {
  afterEach(async () => {
    const closing = live.splice(0);
    for (const { manager } of closing) await manager.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    const pids = closing.flatMap(({ pids }) => [...pids]);
    expect(pids.filter(signalable), 'server processes left alive').toEqual([]);
    // Also the ones no test looked at (a server that hung while starting, say).
    expect(childProcesses(FIXTURE), 'fixture processes of this worker').toEqual([]);
  });
}

/** Writes `config` to a fresh mcp.json and opens a manager on it (not started). */
export async function managerFor(
  config: Record<string, unknown>,
  options: ServerManagerOptions = {},
): Promise<Managed> {
  const dir = await mkdtemp(join(tmpdir(), 'twofold-manager-'));
  dirs.push(dir);
  const path = join(dir, 'mcp.json');
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
  return open(path, options);
}

/** Opens another manager on an existing file (closed after the test like the others). */
export async function open(path: string, options: ServerManagerOptions = {}): Promise<Managed> {
  const events: ManagerEvent[] = [];
  const lines: string[] = [];
  const manager = await ServerManager.fromFile(path, {
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    log: (line) => lines.push(line),
    client: { probeTimeoutMs: 2000, ...options.client },
  });
  const managed: Managed = { manager, events, lines, path, pids: new Set() };
  live.push(managed);
  return managed;
}

/** Reads the manager's file as JSON. */
export async function fileOf(managed: Managed): Promise<Record<string, unknown>> {
  await managed.manager.saved();
  return JSON.parse(await readFile(managed.path, 'utf8')) as Record<string, unknown>;
}

/** The pid of a running stdio server, remembered for the leak check. */
export function pidOf(managed: Managed, server: string): number {
  const pid = managed.manager.serverStatus(server)?.pid;
  if (pid === undefined) throw new Error(`server ${server} has no process`);
  managed.pids.add(pid);
  return pid;
}

/** Polls `condition` every 20 ms until it holds, failing after `timeoutMs`. */
export function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  return waitUntil(condition, what, timeoutMs);
}

/**
 * A fresh abort signal for one tool call, bounding only a hang of that call. Made per call: a
 * signal made when the file loads would count every earlier test's time against later calls.
 */
export function callSignal(): AbortSignal {
  return AbortSignal.timeout(10_000);
}

/** Events of one type, narrowed. */
export function eventsOf<T extends ManagerEvent['type']>(
  managed: Managed,
  type: T,
): Extract<ManagerEvent, { type: T }>[] {
  return managed.events.filter((e): e is Extract<ManagerEvent, { type: T }> => e.type === type);
}

/** The text of a tool result's first content block. */
export function textOf(outcome: unknown): string {
  const content = (outcome as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text ?? '';
}

/** A `${env:NAME}` reference, as an mcp.json holds it. */
export function envRef(name: string): string {
  return `$${'{'}env:${name}}`;
}

/** `@modelcontextprotocol/server-everything` (a legacy server) on stdio, without npx. */
export function referenceEverything(): Record<string, unknown> {
  return { ...referenceEverythingLaunch(import.meta.url) };
}

/** twofold's everything server (apps/everything-server) on stdio, from source with tsx. */
export function twofoldEverything(): Record<string, unknown> {
  return { ...twofoldEverythingLaunch(import.meta.url) };
}
