/**
 * End-to-end helpers: the built `twofold` binary run as a child process with its own cache and
 * token directories (a test never reads or writes the real ones), the servers it is pointed at (the demo server, twofold's everything server over
 * stdio and HTTP, `@modelcontextprotocol/server-everything`), and cleanup after each test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServerHttpHandler } from '@twofold/server/http';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterAll, afterEach } from 'vitest';
import { createEverythingServer } from '../../../../apps/everything-server/src/server';
import {
  type Launch,
  referenceEverythingLaunch,
  twofoldEverythingLaunch,
} from '../../../../config/test-support/servers.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(PACKAGE_DIR, 'dist', 'bin.js');

/** What one run of `twofold` did. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const cacheDirs: string[] = [];
afterAll(() => {
  for (const dir of cacheDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh cache directory (so era verdicts and cached results start empty). */
export function freshCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'twofold-cli-'));
  cacheDirs.push(dir);
  return dir;
}

/** Runs the built binary with `args`; resolves when it exits (killed after `timeoutMs`). */
export function twofold(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? PACKAGE_DIR,
      env: { ...baseEnv(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The environment of every run: nothing of this machine's twofold state. */
function baseEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TWOFOLD_CACHE_DIR: freshCache(),
    TWOFOLD_AUTH_DIR: join(freshCache(), 'auth'),
    NO_COLOR: '1',
  };
}

/** A `twofold` run in the background (`listen`, `bridge`): its output so far, and a stop. */
export interface Running {
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout or stderr contains `text` (rejects after `timeoutMs`). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Sends SIGINT and resolves with the run once it exits. */
  interrupt(): Promise<Run>;
  /** Resolves with the run once it exits by itself. */
  exited(): Promise<Run>;
}

const background = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of background) child.kill('SIGKILL');
  background.clear();
});

/** Starts the built binary with `args` in the background. */
export function twofoldInBackground(
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...baseEnv(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  background.add(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const grew = () => {
    for (const check of [...waiters]) check();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    grew();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    grew();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    output: () => ({ stdout, stderr }),
    waitFor: (text, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const seen = () =>
          typeof text === 'string'
            ? `${stdout}${stderr}`.includes(text)
            : text.test(`${stdout}${stderr}`);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${String(text)}; got:\n${stdout}\n${stderr}`));
        }, timeoutMs);
        const check = () => {
          if (!seen()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    interrupt: async () => {
      child.kill('SIGINT');
      const code = await exited;
      background.delete(child);
      return { code, stdout, stderr };
    },
    exited: async () => {
      const code = await exited;
      background.delete(child);
      return { code, stdout, stderr };
    },
  };
}

/** Parses a run's stdout as JSON, with the run in the error when it is not. */
export function jsonOf<T = Record<string, unknown>>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

/** The demo server built beside the binary. */
export const DEMO = [process.execPath, join(PACKAGE_DIR, 'dist', 'demo-server.js')];

/** twofold's everything server on stdio, from source with tsx. */
export function everythingStdio(): string[] {
  return commandLine(twofoldEverythingLaunch(import.meta.url));
}

/** `@modelcontextprotocol/server-everything` on stdio (a legacy server), without npx. */
export function referenceStdio(): string[] {
  return commandLine(referenceEverythingLaunch(import.meta.url));
}

function commandLine({ command, args }: Launch): string[] {
  return [command, ...args];
}

const endpoints: ServedEndpoint[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
});

/** twofold's everything server over HTTP in this process, closed after the test. */
export async function everythingHttp(): Promise<string> {
  const endpoint = await serve(createServerHttpHandler(createEverythingServer()));
  endpoints.push(endpoint);
  return endpoint.url.href;
}
