/**
 * Headless Chromium from the system (Debian's `chromium` package, or `CHROMIUM` naming the
 * executable): opens one page and runs until stopped, with a profile folder of its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Binary } from './binaries';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

/** The Chromium executable, or why there is none. */
export function chromiumBinary(): Binary {
  const named = process.env.CHROMIUM;
  if (named) return { path: named };
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return { path: join(dir, name) };
      } catch {
        // Not here: try the next.
      }
    }
  }
  return { missing: `no ${NAMES.join(' / ')} on PATH (apt-get install chromium, or set CHROMIUM)` };
}

/** A running headless browser. */
export interface Browser {
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Resolves if it exits on its own (a crash: it never should while the test runs). */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** Opens `url` in headless Chromium. */
export function openPage(executable: string, url: string): Browser {
  const profile = mkdtempSync(join(tmpdir(), 'twofold-chromium-'));
  const child: ChildProcess = spawn(
    executable,
    [
      '--headless',
      // Containers run tests as root, where Chromium's sandbox cannot start.
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      url,
    ],
    // Its own process group, so that stopping it reaches its renderer and helper processes.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exit = once(child, 'exit');
  const exited = exit.then(([code, signal]) => `chromium exited (${code ?? signal}):\n${stderr}`);
  return {
    stderr: () => stderr,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        process.kill(-child.pid, 'SIGTERM');
        await exit;
      }
      // A helper process may still be writing its last file into the profile.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
