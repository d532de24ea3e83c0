/**
 * A runtime started on one of the scripts in `servers/`: it prints the URL it serves on its
 * first stdout line. Stopping it waits for it to exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** Where the runtime scripts live, as their runtime's working directory. */
export const serversDir = fileURLToPath(new URL('../../servers/', import.meta.url));

/** A running server process. */
export interface ServedProcess {
  url: string;
  /** What it wrote on stderr so far (shown when a test fails). */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `command args` in `servers/` and resolves with the URL it prints. */
export async function startServed(command: string, args: string[]): Promise<ServedProcess> {
  const child = spawn(command, args, {
    cwd: serversDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const url = await firstLine(child, () => stderr);
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end).trim());
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      reject(
        new Error(`${child.spawnfile} exited (${code ?? signal}) before serving:\n${stderr()}`),
      );
    });
  });
}
