/**
 * A lock between `twofold` processes: a lock file created with O_EXCL (`wx`), holding who took
 * it. A lock whose holder died (same host, no such pid) is taken over at once, one older than
 * the stale bound whoever holds it; a waiter gives up after a bounded time. Used so that two
 * processes do not refresh one token at once (with rotating refresh tokens, the loser's refresh
 * would fail, and some servers then revoke the whole grant).
 */
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { CliError, EXIT } from '../cli/exit-codes';

/** Timings of {@link withFileLock}. */
export interface FileLockOptions {
  /** A lock older than this is taken over, its holder presumed stuck. Default 60 s. */
  staleMs?: number;
  /** How long to wait for the lock at most before failing. Default 120 s. */
  maxWaitMs?: number;
  /** Between two attempts. Default 25 ms (with jitter). */
  retryMs?: number;
  /** Called once when the lock is busy and waiting starts (`--verbose` says so). */
  onWait?: (holder: LockHolder | undefined) => void;
}

/** What a lock file records. */
export interface LockHolder {
  pid: number;
  host: string;
  /** A random id, so a holder only ever removes its own lock. */
  nonce: string;
}

/** Runs `task` holding the lock at `path` (created beside the token files). */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString('hex'),
  };
  await acquire(path, me, options);
  try {
    return await task();
  } finally {
    // Only our own lock: a waiter may have taken a stale one over in the meantime.
    if ((await readHolder(path))?.nonce === me.nonce) await rm(path, { force: true });
  }
}

async function acquire(path: string, me: LockHolder, options: FileLockOptions): Promise<void> {
  const staleMs = options.staleMs ?? 60_000;
  const deadline = Date.now() + (options.maxWaitMs ?? 120_000);
  const retryMs = options.retryMs ?? 25;
  let told = false;
  for (;;) {
    if (await tryCreate(path, me)) return;
    const holder = await readHolder(path);
    if (await isStale(path, holder, staleMs)) {
      await takeOver(path, holder);
      continue;
    }
    if (Date.now() > deadline) {
      const who = holder ? ` (pid ${holder.pid} on ${holder.host})` : '';
      throw new CliError(
        EXIT.timeout,
        `another twofold process holds the token lock ${path}${who}; if none is running, delete that file`,
      );
    }
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs + Math.random() * retryMs));
  }
}

/** Creates the lock file when there is none; `false` when someone holds it. */
async function tryCreate(path: string, me: LockHolder): Promise<boolean> {
  try {
    const file = await open(path, 'wx', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(me)}\n`);
    } finally {
      await file.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.nonce === 'string') {
      return { pid: parsed.pid, host: String(parsed.host ?? ''), nonce: parsed.nonce };
    }
  } catch {
    // Gone, or being written right now: judged by its age below.
  }
  return undefined;
}

/** A dead holder on this host, or a lock file older than `staleMs`. */
async function isStale(
  path: string,
  holder: LockHolder | undefined,
  staleMs: number,
): Promise<boolean> {
  if (holder !== undefined && holder.host === hostname() && !alive(holder.pid)) return true;
  try {
    return Date.now() - (await stat(path)).mtimeMs > staleMs;
  } catch {
    return false; // Released in the meantime: the next attempt gets it.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock: renamed aside first (atomic), so that of two waiters taking the same
 * stale lock over, the second does not remove the lock the first just created; a lock renamed
 * aside that turns out not to be the stale one is put back.
 */
async function takeOver(path: string, stale: LockHolder | undefined): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return; // Someone else removed it first.
  }
  const moved = await readHolder(aside);
  if (moved !== undefined && moved.nonce !== stale?.nonce) {
    await link(aside, path).catch(() => undefined);
  }
  await rm(aside, { force: true });
}
