/**
 * The bounds of a run, through the built binary: a slow-starting stdio server is not taken for
 * one that breaks the spec, a call that progress keeps alive still ends at its total cap, the era
 * probe is part of what --timeout bounds, and `config add` works on a HOME with no config yet.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshCache, jsonOf, twofold } from './support';

const fixture = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SLOW_START = [process.execPath, fixture('./fixtures/slow-start.mjs')];
const PROGRESS_FOREVER = [process.execPath, fixture('./fixtures/progress-forever.mjs')];
const SILENT = [process.execPath, fixture('../doctor/fixtures/silent-stdio.mjs')];

interface Report {
  era: string;
  checks: { id: string; status: string; details: string[] }[];
}

// Each run is bounded by its own options; the test timeout only bounds a hang.
describe('twofold limits', { timeout: 120_000 }, () => {
  it('doctor: a server slower to start than a step is not failed for it', async () => {
    // Every process the doctor starts blocks 1.5 s before reading stdin: longer than a step
    // (--timeout 1000) and than the era probe (--probe-timeout 300). Its start-up allowance
    // leaves room for a busy machine, where loading the server takes seconds more.
    const run = await twofold(
      [
        'doctor',
        '--json',
        '--timeout',
        '1000',
        '--probe-timeout',
        '300',
        '--startup-timeout',
        '20000',
        '--',
        ...SLOW_START,
      ],
      { timeoutMs: 110_000 },
    );
    const report = jsonOf<Report>(run);
    const failed = report.checks.filter(
      (check) => check.status !== 'pass' && check.status !== 'skip',
    );
    expect(failed, run.stdout).toEqual([]);
    expect(report.era).toBe('modern');
    expect(run.code).toBe(0);
  });

  it('tools call: progress resets --timeout, --max-total-timeout still ends the call', async () => {
    const run = await twofold([
      'tools',
      'call',
      'endless',
      '--timeout',
      '20000',
      '--max-total-timeout',
      '2000',
      '--',
      ...PROGRESS_FOREVER,
    ]);
    expect(run.code).toBe(75);
    expect(run.stderr).toContain('total time cap of 2000 ms (--max-total-timeout)');
  });

  it('--timeout bounds connecting, the era probe included', async () => {
    const run = await twofold(['tools', 'list', '--timeout', '600', '--', ...SILENT]);
    expect(run.code).toBe(75);
    expect(run.stderr).toContain('timed out after 600 ms');
  });

  it('--probe-timeout longer than --timeout is a usage error', async () => {
    const run = await twofold([
      'tools',
      'list',
      '--timeout',
      '500',
      '--probe-timeout',
      '900',
      '--',
      ...SILENT,
    ]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('--probe-timeout (900 ms) is longer than --timeout (500 ms)');
  });

  it('config on a fresh HOME: list is empty, add makes ~/.config/twofold (0700) and the mcp.json', async () => {
    const home = freshCache();
    const env = { HOME: home };
    // Before anything was added, there is nothing to list: an empty list, not an error.
    const empty = await twofold(['config', 'list', '--json'], { env, cwd: home });
    expect(empty.code, empty.stderr).toBe(0);
    expect(jsonOf(empty).servers).toEqual([]);
    expect(empty.stderr).toContain('"twofold config add" makes it');
    const added = await twofold(['config', 'add', 'demo', '--json', '--', 'node', 'server.js'], {
      env,
      cwd: home,
    });
    expect(added.code, added.stderr).toBe(0);
    const dir = join(home, '.config', 'twofold');
    expect(jsonOf(added)).toEqual({ file: join(dir, 'mcp.json'), done: 'added demo' });
    if (process.platform !== 'win32') expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const listed = jsonOf(await twofold(['config', 'list', '--json'], { env, cwd: home }));
    expect(listed.servers).toEqual([
      { name: 'demo', type: 'stdio', enabled: true, target: 'node server.js' },
    ]);
  });

  it('config add where the mcp.json cannot be written: exit 73, not "unreachable"', async () => {
    // A regular file where the directory should be: no permissions needed to make it fail.
    const home = freshCache();
    const config = join(home, 'mcp.json', 'mcp.json');
    await twofold(['config', 'add', 'demo', '--config', join(home, 'mcp.json'), '--', 'node']);
    const run = await twofold(['config', 'add', 'demo', '--config', config, '--', 'node']);
    expect(run.code).toBe(73);
    expect(run.stderr).toContain(`cannot write ${config}`);
  });
});
