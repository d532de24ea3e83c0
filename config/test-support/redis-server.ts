/**
 * A private `redis-server` for one test file (test-only; imported by relative path): started on
 * a free loopback port with persistence off, never the system service. Tests skip with a
 * visible reason where the binary is missing (`.ci/run` installs it from Debian).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Whether a program is on PATH; warns with `why` when it is not (the caller skips). */
export function haveBinary(name: string, why: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(`${name} not found: skipping ${why} (.ci/run installs it from Debian)`);
    return false;
  }
}

/** A free TCP port on 127.0.0.1, as the OS hands one out. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A running test Redis. */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.once('error', reject);
  });
  await ready;
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Starts a redis-server of its own on a free loopback port. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child = await spawnRedis(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopChild(child),
    restart: async () => {
      await stopChild(child);
      child = await spawnRedis(port);
    },
  };
}
