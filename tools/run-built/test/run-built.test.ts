// `pnpm twofold …` at the repository root prints only what the CLI prints: no pnpm banner on
// stdout (so `--json` parses) and no build summary on stderr; the CLI's exit code comes through.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// The same pnpm the README's commands use; the version pins what the banner looks like.
const PNPM = ['-y', 'pnpm@10.34.9'];

/**
 * The environment of a person's shell: without the `npm_*` settings pnpm gives the script that
 * runs this test (npx warns about each on stderr), and without npm's update notice.
 */
function shellEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
  );
  return { ...env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' };
}

function pnpm(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npx', [...PNPM, ...args], { cwd: ROOT, env: shellEnvironment() });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// Each run starts pnpm and a turbo build of the CLI's packages (cached in CI, rebuilt after a
// source change), which on a busy machine takes minutes rather than seconds.
describe('pnpm twofold at the root', { timeout: 300_000 }, () => {
  it('prints valid JSON with --json and nothing on stderr', async () => {
    const demo = 'node packages/cli/dist/demo-server.js';
    const run = await pnpm([
      'twofold',
      'discover',
      '--json',
      '--no-cache',
      '--',
      ...demo.split(' '),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      era: 'modern',
      serverInfo: { name: 'twofold-demo' },
    });
  });

  it("passes the CLI's exit code and its own error through", async () => {
    const run = await pnpm(['twofold', 'discover', '--no-such-flag']);
    expect(run.code).toBe(64);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^twofold: /);
  });
});
