/**
 * The pieces of the CLI's authorization, in this process: the lock (stale locks taken over, a
 * bounded wait), the token store (round trip, modes, what it refuses and ignores), the loopback
 * listener, the browser command, and what traces mask.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/auth/browser';
import { withFileLock } from '../../src/auth/file-lock';
import { FileTokenStore } from '../../src/auth/file-store';
import { startLoopbackRedirect } from '../../src/auth/loopback';
import { maskBody, maskedJsonValue, maskHeader, redactUrl } from '../../src/cli/redact';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'twofold-auth-'));
  dirs.push(dir);
  return dir;
}

const KEY = { issuer: 'https://as.example.com', resource: 'https://mcp.example.com/mcp' };
const POSIX = process.platform !== 'win32';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

describe('the file lock', () => {
  it('runs one holder at a time, and removes its lock', async () => {
    const lock = join(tempDir(), 'x.lock');
    const order: string[] = [];
    let release!: () => void;
    const first = withFileLock(lock, async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first out');
    });
    let waited!: () => void;
    const waiting = new Promise<void>((resolve) => (waited = resolve));
    const second = withFileLock(lock, async () => void order.push('second'), { onWait: waited });
    await waiting;
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second']);
    expect(readdirSync(join(lock, '..'))).toEqual([]);
  });

  it('takes over a lock whose holder died, or one older than the stale bound', async () => {
    const dir = tempDir();
    const lock = join(dir, 'x.lock');
    writeFileSync(
      lock,
      JSON.stringify({
        pid: await deadPid(),
        host: (await import('node:os')).hostname(),
        nonce: 'a',
      }),
    );
    expect(await withFileLock(lock, async () => 'dead holder')).toBe('dead holder');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere', nonce: 'b' }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, async () => 'stale', { staleMs: 60_000 })).toBe('stale');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives up after the bounded wait, naming the holder and the file', async () => {
    const lock = join(tempDir(), 'x.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere', nonce: 'c' }));
    await expect(withFileLock(lock, async () => 'never', { maxWaitMs: 0 })).rejects.toThrow(
      `another twofold process holds the token lock ${lock} (pid ${process.pid} on elsewhere)`,
    );
  });
});

describe('the token store', () => {
  it('keeps credentials in a private file named by a digest', async () => {
    const dir = join(tempDir(), 'auth');
    const store = new FileTokenStore(dir);
    expect(await store.get(KEY)).toBeUndefined();
    const value = { tokens: { accessToken: 'at-1', tokenType: 'bearer' as const, expiresAt: 5 } };
    await store.set(KEY, value);
    expect(await store.get(KEY)).toEqual(value);
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
    if (POSIX) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, name as string)).mode & 0o777).toBe(0o600);
    }
    expect(await store.list()).toEqual([{ path: join(dir, name as string), ...KEY }]);
    await store.delete(KEY);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(POSIX)('refuses a file others may read', async () => {
    const store = new FileTokenStore(join(tempDir(), 'auth'));
    await store.set(KEY, { tokens: { accessToken: 'at', tokenType: 'bearer' } });
    const path = store.pathOf(KEY);
    (await import('node:fs')).chmodSync(path, 0o640);
    await expect(store.get(KEY)).rejects.toMatchObject({
      exitCode: 77,
      message: expect.stringContaining(`mode 0640); if you trust it, run \`chmod 600 ${path}\``),
    });
  });

  it('warns once about a file it did not write and treats it as absent', async () => {
    const warnings: string[] = [];
    const store = new FileTokenStore(join(tempDir(), 'auth'), { warn: (w) => warnings.push(w) });
    await store.set(KEY, {});
    const path = store.pathOf(KEY);
    for (const text of ['{', '[]', '{"version":1,"issuer":"x","resource":"y","credentials":{}}']) {
      writeFileSync(path, text);
      expect(await store.get(KEY)).toBeUndefined();
      expect(await store.get(KEY)).toBeUndefined();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`ignoring the token file ${path}: it is not JSON`);
    const other = new FileTokenStore(join(tempDir(), 'auth'), { warn: (w) => warnings.push(w) });
    await other.set(KEY, {});
    writeFileSync(
      other.pathOf(KEY),
      JSON.stringify({ version: 1, ...KEY, credentials: { tokens: { accessToken: 1 } } }),
    );
    expect(await other.get(KEY)).toBeUndefined();
    expect(warnings[1]).toContain('it is not a token file this version of twofold wrote');
  });
});

describe('the loopback listener', () => {
  it('hands over the redirect, answers the browser, and closes', async () => {
    const listener = await startLoopbackRedirect();
    expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const landed = listener.next(new AbortController().signal);
    const page = await fetch(`${listener.redirectUri}?code=c0de&state=s`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this tab');
    expect((await landed).href).toBe(`${listener.redirectUri}?code=c0de&state=s`);
    const again = await fetch(`${listener.redirectUri}?code=other`);
    expect(again.status).toBe(409);
    await again.body?.cancel();
    const elsewhere = await fetch(new URL('/favicon.ico', listener.redirectUri));
    expect(elsewhere.status).toBe(404);
    await elsewhere.body?.cancel();
    await listener.close();
    await expect(fetch(listener.redirectUri)).rejects.toThrow();
  });

  it('stops waiting when the signal is aborted', async () => {
    const listener = await startLoopbackRedirect();
    const controller = new AbortController();
    const landed = listener.next(controller.signal);
    controller.abort(new Error('time is up'));
    await expect(landed).rejects.toThrow('time is up');
    await listener.close();
  });
});

describe('the browser command', () => {
  const url = 'https://as.example.com/auth?a=1&b=2';
  it.each([
    [
      { TWOFOLD_BROWSER: 'my-browser --new-window' },
      'linux',
      { command: 'my-browser', args: ['--new-window', url] },
    ],
    [{ BROWSER: 'firefox -url %s' }, 'linux', { command: 'firefox', args: ['-url', url] }],
    [{ TWOFOLD_BROWSER: 'none', BROWSER: 'firefox' }, 'linux', undefined],
    [{ DISPLAY: ':0' }, 'linux', { command: 'xdg-open', args: [url] }],
    [{}, 'linux', undefined],
    [{}, 'darwin', { command: 'open', args: [url] }],
    [{}, 'win32', { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] }],
  ] as const)('%j on %s', (env, platform, expected) => {
    expect(browserCommand(url, env, platform)).toEqual(expected);
  });
});

describe('what traces mask', () => {
  it('hides OAuth credentials in URLs, forms, JSON and headers', () => {
    expect(redactUrl('http://127.0.0.1:1/callback?code=abc&state=xyz&iss=http%3A%2F%2Fas')).toBe(
      'http://127.0.0.1:1/callback?code=***&state=***&iss=***',
    );
    expect(
      maskBody(
        'grant_type=refresh_token&refresh_token=r1&client_secret=s',
        'application/x-www-form-urlencoded',
      ),
    ).toBe('grant_type=refresh_token&refresh_token=***&client_secret=***');
    expect(maskBody('{"access_token":"a","id_token":"i","expires_in":3}', 'application/json')).toBe(
      '{"access_token":"***","id_token":"***","expires_in":3}',
    );
    expect(maskHeader('Authorization', 'Bearer abc')).toBe('Bearer ***');
    expect(maskHeader('DPoP', 'eyJ.x.y')).toBe('***');
    expect(maskHeader('content-type', 'application/json')).toBe('application/json');
  });

  it('hides secret fields of MCP messages but not a tool argument named code', () => {
    const message = {
      params: { arguments: { code: 'print(1)', apiKey: 'k', note: 'Bearer abc' } },
    };
    expect(JSON.stringify(message, maskedJsonValue)).toBe(
      '{"params":{"arguments":{"code":"print(1)","apiKey":"***","note":"***"}}}',
    );
  });
});
