/**
 * The everything server's and client's command lines, run as processes from source: `--help`
 * prints the usage on stdout and exits 0; an unknown option or a missing argument prints what
 * is wrong and the usage on stderr and exits 64 (EX_USAGE), never a stack trace.
 */
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ChildExit, childExit } from '../../../config/test-support/processes.ts';
import { tsxLoader } from '../../../config/test-support/servers.ts';

const APPS = fileURLToPath(new URL('../../../apps/', import.meta.url));
const PROGRAMS = {
  'everything-server': {
    main: `${APPS}everything-server/src/main.ts`,
    fromSource: new URL('./fixtures/server-from-source.mjs', import.meta.url).href,
  },
  'everything-client': {
    main: `${APPS}everything-client/src/main.ts`,
    fromSource: new URL('./fixtures/client-from-source.mjs', import.meta.url).href,
  },
} as const;

// Each case starts tsx once; on a busy machine that alone takes seconds, so the cases of a
// program run side by side and only a hang is bounded.
const TEST_TIMEOUT_MS = 120_000;

function run(
  program: keyof typeof PROGRAMS,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildExit> {
  const { main, fromSource } = PROGRAMS[program];
  const loader = tsxLoader(import.meta.url);
  // The suite's variables of the machine running the tests must not leak into these runs.
  const { MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    ['--import', loader, '--import', fromSource, main, ...args],
    {
      cwd: dirname(dirname(main)),
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return childExit(child);
}

/** A usage error: exit 64, the problem and the usage on stderr, nothing on stdout, no trace. */
function expectUsageError(exit: ChildExit, program: string, problem: RegExp): void {
  expect(exit.status, exit.stderr).toBe(64);
  expect(exit.stdout).toBe('');
  expect(exit.stderr).toMatch(new RegExp(`^${program}: `));
  expect(exit.stderr).toMatch(problem);
  expect(exit.stderr).toContain(`usage: ${program}`);
  expect(exit.stderr).not.toMatch(/^\s+at /m);
}

describe('command-line usage', () => {
  it(
    'everything-server: --help on stdout, wrong usage on stderr with 64',
    async () => {
      const [help, short, unknown, noMode, badPort] = await Promise.all([
        run('everything-server', ['--help']),
        run('everything-server', ['-h']),
        run('everything-server', ['--bogus']),
        run('everything-server', []),
        run('everything-server', ['--http', '--port', 'x']),
      ]);
      for (const shown of [help, short]) {
        expect(shown.status, shown.stderr).toBe(0);
        expect(shown.stdout).toMatch(/^usage: everything-server/);
        expect(shown.stdout).toContain('--http');
        expect(shown.stderr).toBe('');
      }
      expectUsageError(unknown, 'everything-server', /Unknown option '--bogus'/);
      for (const wrong of [noMode, badPort]) {
        expect(wrong.status, wrong.stderr).toBe(64);
        expect(wrong.stderr).toMatch(/^usage: everything-server/);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'everything-client: --help on stdout, wrong usage on stderr with 64',
    async () => {
      const url = 'http://127.0.0.1:9/mcp';
      const [help, unknown, noUrl, badEra, badContext] = await Promise.all([
        run('everything-client', ['--help']),
        run('everything-client', ['--bogus', url]),
        run('everything-client', []),
        run('everything-client', ['--era', 'future', url]),
        run('everything-client', [url], { MCP_CONFORMANCE_CONTEXT: '{not json' }),
      ]);
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^usage: everything-client/);
      expect(help.stdout).toContain('--scenario');
      expect(help.stderr).toBe('');
      expectUsageError(unknown, 'everything-client', /Unknown option '--bogus'/);
      expectUsageError(noUrl, 'everything-client', /the server URL/);
      expectUsageError(badEra, 'everything-client', /unknown era future/);
      expectUsageError(badContext, 'everything-client', /MCP_CONFORMANCE_CONTEXT is not JSON/);
    },
    TEST_TIMEOUT_MS,
  );
});
