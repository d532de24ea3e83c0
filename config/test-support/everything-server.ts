/** twofold's everything server over HTTP, run from source as its own process. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { tsxLoader } from './servers.ts';

const MAIN = fileURLToPath(new URL('../../apps/everything-server/src/main.ts', import.meta.url));

/** A request-state key in hex, shared by the replicas of a test (tests only). */
export const SHARED_KEY_HEX = 'ab'.repeat(32);

/** One running everything server. */
export interface EverythingProcess {
  readonly url: URL;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** Stops it (SIGTERM; SIGKILL with `kill`) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Options of {@link startEverything}. */
export interface EverythingOptions {
  redisUrl?: string;
  /** `TWOFOLD_REQUEST_STATE_KEY`; undefined leaves it unset. */
  keyHex?: string;
  port?: number;
  /** `--allowed-host` values (the Host a proxy forwards). */
  allowedHosts?: string[];
  /** `--session-id-header`: the header a proxy names a new legacy session's id in. */
  sessionIdHeader?: string;
}

/** Starts `everything-server --http` and resolves with its URL once it listens. */
export async function startEverything(options: EverythingOptions = {}): Promise<EverythingProcess> {
  const args = ['--import', tsxLoader(import.meta.url), MAIN, '--http', '--port'];
  args.push(String(options.port ?? 0));
  if (options.redisUrl !== undefined) args.push('--redis', options.redisUrl);
  for (const host of options.allowedHosts ?? []) args.push('--allowed-host', host);
  if (options.sessionIdHeader !== undefined) {
    args.push('--session-id-header', options.sessionIdHeader);
  }
  const env = { ...process.env };
  delete env.TWOFOLD_REQUEST_STATE_KEY;
  if (options.keyHex !== undefined) env.TWOFOLD_REQUEST_STATE_KEY = options.keyHex;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /listening on (\S+)/.exec(stderr);
      if (found?.[1]) resolve(new URL(found[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`everything-server exited (${code}): ${stderr}`)),
    );
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

/** Runs the everything server to its exit; resolves with its exit code and stderr. */
export async function runEverything(args: string[], keyHex: string) {
  const env = { ...process.env, TWOFOLD_REQUEST_STATE_KEY: keyHex };
  const child = spawn(process.execPath, ['--import', tsxLoader(import.meta.url), MAIN, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}
