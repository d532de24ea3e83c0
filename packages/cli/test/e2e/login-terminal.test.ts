/**
 * On a terminal, a command that meets a 401 logs in by itself, outside any MCP request, and
 * then does what it was asked. The binary runs under `script` (util-linux), which gives it a
 * pseudo-terminal; elsewhere this is skipped with the reason.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthWorld,
  loginSetup,
  type ProtectedEndpoint,
  startAuthWorld,
  tokenFile,
} from './auth-support';
import { freshCache } from './support';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

let world: AuthWorld;
let mcp: ProtectedEndpoint;

beforeAll(async () => {
  if (!HAS_SCRIPT) return;
  world = await startAuthWorld();
  mcp = await world.protect();
});
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

describe.runIf(HAS_SCRIPT)('a command on a terminal', { timeout: 60_000 }, () => {
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
});

describe.skipIf(HAS_SCRIPT)('a command on a terminal', () => {
  it.skip('needs util-linux `script` to get a pseudo-terminal', () => {});
});
