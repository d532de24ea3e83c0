/**
 * On a terminal, a command that meets a 401 logs in by itself, outside any MCP request, and
 * then does what it was asked; a 403 `insufficient_scope` gets a new login for the scopes it
 * names. The binary runs under `script` (util-linux), which gives it a pseudo-terminal;
 * elsewhere this is skipped with the reason. And a login without a browser, timing out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_SCOPE,
  type AuthWorld,
  loginSetup,
  type ProtectedEndpoint,
  SCOPE,
  startAuthWorld,
  tokenFile,
} from './auth-support';
import { freshCache, twofold } from './support';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

let world: AuthWorld;
let mcp: ProtectedEndpoint;

beforeAll(async () => {
  world = await startAuthWorld();
  mcp = await world.protect();
}, 120_000);
afterAll(() => world?.close());

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Runs the binary on a pseudo-terminal; resolves with its code and everything it showed. */
function onTerminal(args: string[], env: Record<string, string>) {
  const line = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TWOFOLD_CACHE_DIR: freshCache(),
      NO_COLOR: '1',
      TERM: 'dumb',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // stdin stays open until the end: `script` ends the session when its input does.
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.runIf(HAS_SCRIPT)('a command on a terminal', { timeout: 180_000 }, () => {
  it('logs in by itself when the server asks, then runs', async () => {
    const setup = loginSetup();
    const run = await onTerminal(
      ['tools', 'call', 'add', 'a=40', 'b=2', '--url', mcp.url],
      setup.env,
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`${mcp.url} needs a login`);
    expect(run.output).toContain(`${world.as.issuer}/auth?`);
    expect(run.output).toMatch(/\b42\b/);
    const visits = await setup.pages(1);
    expect(visits.filter((v) => v.step === 'page')).toHaveLength(1);
    expect(mcp.accepted).toContain(tokenFile(setup.dir).record.credentials.tokens?.accessToken);
  });

  it('logs in again for the scopes a 403 asks for, keeping those it had', async () => {
    const setup = loginSetup();
    const login = await twofold(['login', '--url', mcp.url], { env: setup.env });
    expect(login.code, login.stderr).toBe(0);
    expect(tokenFile(setup.dir).record.credentials.tokens?.scope).toBe(SCOPE);
    const call = ['tools', 'call', 'admin_ping', '--url', mcp.url];
    const piped = await twofold(call, { env: setup.env });
    expect(piped.code).toBe(77);
    expect(piped.stderr).toContain('answered HTTP 403: it needs a login');
    const run = await onTerminal(call, setup.env);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('pong');
    const scopes = tokenFile(setup.dir).record.credentials.tokens?.scope?.split(' ');
    expect(scopes).toEqual(expect.arrayContaining([SCOPE, ADMIN_SCOPE]));
  });
});

describe('a login without a browser', { timeout: 180_000 }, () => {
  it('prints the URL without a browser, and gives up after --login-timeout (75)', async () => {
    const setup = loginSetup();
    const env = { ...setup.env, TWOFOLD_BROWSER: 'none' };
    const run = await twofold(['login', '--url', mcp.url, '--login-timeout', '300'], { env });
    expect(run.code).toBe(75);
    expect(run.stderr).toContain(`${world.as.issuer}/auth?`);
    expect(run.stderr).not.toContain('a browser was started');
    expect(run.stderr).toContain('No authorization arrived within 300 ms');
  });
});

describe.skipIf(HAS_SCRIPT)('a command on a terminal', () => {
  it.skip('needs util-linux `script` to get a pseudo-terminal', () => {});
});
