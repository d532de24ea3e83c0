/**
 * The stored tokens between runs, through the built binary: an expired access token is
 * refreshed without a login; two processes that need a refresh at once make one refresh (the
 * lock: they are held at it until both wait, so they really race); a token file others may
 * read is refused with the fix to apply; a file of garbage is treated as absent, with a warning.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthWorld,
  type LoginSetup,
  loginSetup,
  type ProtectedEndpoint,
  startAuthWorld,
  type TokenRecord,
  tokenFile,
} from './auth-support';
import { twofold, twofoldInBackground } from './support';

let world: AuthWorld;
let mcp: ProtectedEndpoint;

beforeAll(async () => {
  world = await startAuthWorld();
  mcp = await world.protect();
}, 120_000);
afterAll(() => world?.close());

const POSIX = process.platform !== 'win32';

/** A login in a fresh directory; `env` has no browser, so nothing can log in again. */
async function loggedIn(): Promise<
  LoginSetup & { browserEnv: Record<string, string>; path: string; record: TokenRecord }
> {
  const setup = loginSetup();
  const login = await twofold(['login', '--url', mcp.url], { env: setup.env });
  expect(login.code, login.stderr).toBe(0);
  const { TWOFOLD_BROWSER: _, ...env } = setup.env;
  return { ...setup, browserEnv: setup.env, env, ...tokenFile(setup.dir) };
}

/** Rewrites the stored access token as expired (the file keeps its mode). */
function expire(path: string): void {
  const record = JSON.parse(readFileSync(path, 'utf8')) as TokenRecord;
  (record.credentials.tokens as { expiresAt: number }).expiresAt = Date.now() - 60_000;
  writeFileSync(path, JSON.stringify(record));
}

const list = (env: Record<string, string>, ...extra: string[]) =>
  twofold(['tools', 'list', '--url', mcp.url, ...extra], { env });

describe('stored tokens', { timeout: 180_000 }, () => {
  it('refreshes an expired access token instead of logging in', async () => {
    const { env, path, record } = await loggedIn();
    expire(path);
    const before = world.refreshes();
    const run = await list(env);
    expect(run.code, run.stderr).toBe(0);
    expect(world.refreshes()).toBe(before + 1);
    const renewed = tokenFile(env.TWOFOLD_AUTH_DIR as string).record.credentials.tokens;
    expect(renewed?.accessToken).not.toBe(record.credentials.tokens?.accessToken);
    expect(renewed?.refreshToken).not.toBe(record.credentials.tokens?.refreshToken);
    expect(mcp.accepted.at(-1)).toBe(renewed?.accessToken);
  });

  it('two processes needing a refresh at once refresh once', async () => {
    const { env, path } = await loggedIn();
    expire(path);
    // Held here until both wait for it: then they race for the lock, not one after the other.
    const lock = path.replace(/\.json$/, '.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'test' }), {
      flag: 'wx',
    });
    const before = world.refreshes();
    const runs = [0, 1].map(() =>
      twofoldInBackground(['tools', 'list', '--url', mcp.url, '--verbose'], { env }),
    );
    await Promise.all(
      runs.map((run) => run.waitFor('# oauth: waiting for the token lock', 60_000)),
    );
    expect(world.refreshes()).toBe(before);
    rmSync(lock);
    for (const run of runs) {
      const done = await run.exited();
      expect(done.code, done.stderr).toBe(0);
    }
    expect(world.refreshes()).toBe(before + 1);
    const stored = tokenFile(env.TWOFOLD_AUTH_DIR as string).record.credentials.tokens;
    expect(mcp.accepted.slice(-2)).toEqual([stored?.accessToken, stored?.accessToken]);
  });

  it.runIf(POSIX)('refuses a token file that others may read, saying how to fix it', async () => {
    const { env, path } = await loggedIn();
    chmodSync(path, 0o644);
    const run = await list(env);
    expect(run.code).toBe(77);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`refusing the token file ${path}: others may read or change it`);
    expect(lines[0]).toContain(`chmod 600 ${path}`);
    const login = await twofold(['login', '--url', mcp.url], { env });
    expect(login.code).toBe(77);
    chmodSync(path, 0o600);
    expect((await list(env)).code).toBe(0);
  });

  it('treats a garbage token file as absent, with a warning', async () => {
    const { env, browserEnv, path } = await loggedIn();
    for (const garbage of [
      'not json {',
      JSON.stringify({ version: 1, issuer: world.as.issuer, resource: mcp.url, credentials: 5 }),
    ]) {
      writeFileSync(path, garbage);
      const run = await list(env);
      expect(run.code).toBe(77);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`warning: ignoring the token file ${path}`);
      expect(lines[1]).toContain('run `twofold login --url');
    }
    // A login replaces it.
    const login = await twofold(['login', '--url', mcp.url], { env: browserEnv });
    expect(login.code, login.stderr).toBe(0);
    expect((await list(env)).code).toBe(0);
  });
});
