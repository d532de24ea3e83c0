/**
 * Test environment of the import tests: cleanups that run after each test (providers, HTTP
 * endpoints, served connections), stdio targets that remember every process they start, and an
 * after-each check that no server process (nor its process group) is left alive.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StdioServerOptions, stdioServer } from '@twofold/client/node';
import type { StdioClientTransport } from '@twofold/transports/node';
import { afterEach } from 'vitest';
import {
  expectNoLeftovers,
  leftovers,
  pidsOf,
  type TrackedStdio as Tracked,
  trackStdio,
} from '../../../../../config/test-support/processes.ts';
import {
  referenceEverythingLaunch,
  tsxLoader,
  twofoldEverythingLaunch,
} from '../../../../../config/test-support/servers.ts';

export { signalable, until } from '../../../../../config/test-support/processes.ts';

/** Per-test timeout of tests that start real processes. */
export const PROCESS_TIMEOUT = 20_000;

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const cleanups: (() => Promise<unknown> | unknown)[] = [];
const tracked: TrackedStdio[] = [];

/** A stdio target that records the transports (hence the processes) it opens. */
export type TrackedStdio = Tracked<StdioClientTransport>;

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
    const started = pidsOf(tracked.splice(0).flatMap((t) => t.opened));
    expectNoLeftovers(await leftovers(started), 'server');
  });
}

/** A stdio target whose processes the after-each check looks for. */
export function trackedStdio(options: StdioServerOptions): TrackedStdio {
  const result = trackStdio<StdioClientTransport>((stderr) =>
    stdioServer({
      closeTimeouts: { stdinEndMs: 1000, sigtermMs: 1000, outputDrainMs: 1000 },
      ...options,
      stderr,
    }),
  );
  tracked.push(result);
  return result;
}

const TSX = tsxLoader(import.meta.url);

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
  return { ...twofoldEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}

/** The installed `@modelcontextprotocol/server-everything` on stdio (no npx). */
export function referenceEverything(): StdioServerOptions {
  return { ...referenceEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}
