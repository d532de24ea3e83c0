#!/usr/bin/env node
/**
 * Runs the MCP conformance suite's client scenarios against the everything client, for each
 * spec revision below (with the authorization extension scenarios, forced), and judges the results against conformance/expected-failures.json (the
 * rules are in @twofold/conformance: unlisted failures and stale entries both fail the run).
 * For each
 * scenario the suite starts a scenario server and runs the client as `<command> <server-url>`
 * with MCP_CONFORMANCE_SCENARIO set; the scenario fails on a failed check, and when the client
 * exits with an error or times out. Prints a pass table. Bounded by a global timeout.
 *
 * Usage: node scripts/conformance.mjs [--spec-version V]... [--scenario NAME]...
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as suite from '@twofold/conformance';

const APP = dirname(dirname(fileURLToPath(import.meta.url)));
const EXPECTED_FILE = join(APP, 'conformance', 'expected-failures.json');
const REVISIONS = ['2026-07-28', '2025-11-25'];
/**
 * The extension scenarios (authorization, skills): `conformance list` names them under no
 * revision, so they run with `--force`, at the revisions given here.
 */
const EXTENSION_SCENARIOS = {
  '2026-07-28': [
    'auth/client-credentials-jwt',
    'auth/client-credentials-basic',
    'auth/enterprise-managed-authorization',
    'auth/dpop',
    'auth/dpop-nonce',
    'auth/wif-jwt-bearer',
    'sep-2640-client-no-prefetch',
    'sep-2640-client-verify-digest',
    'sep-2640-client-verify-size',
    'sep-2640-client-verify-frontmatter',
  ],
};
const EXCLUDED = /^$/;
const GLOBAL_TIMEOUT_MS = 15 * 60_000;
const SCENARIO_TIMEOUT_MS = 30_000;
// Few at a time: sse-retry times the client's reconnection, which a loaded machine delays.
const CONCURRENCY = 2;
const STDERR_LINES = 20;

/**
 * The client as the suite runs it: this Node (the suite itself needs Node 22, which npx puts
 * first on PATH) with tsx. The suite splits the command on spaces, so no path may have one.
 */
function clientCommand() {
  const tsx = join(
    dirname(createRequire(join(APP, 'package.json')).resolve('tsx/package.json')),
    'dist',
    'cli.mjs',
  );
  const parts = [process.execPath, tsx, join(APP, 'src', 'main.ts')];
  const spaced = parts.find((part) => /\s/.test(part));
  if (spaced) throw new Error(`the suite cannot run a command with a space in ${spaced}`);
  return parts.join(' ');
}

/** The client scenarios the suite applies at a revision (its `list` lines: `  - name [...]`). */
async function listScenarios(specVersion) {
  const { output, code } = await suite.runConformance([
    'list',
    '--client',
    '--spec-version',
    specVersion,
  ]);
  const names = [...output.matchAll(/^ {2}- (\S+) \[/gm)].map((m) => m[1]);
  if (code !== 0 || names.length === 0) {
    throw new Error(`conformance list failed for ${specVersion} (exit ${code}):\n${output}`);
  }
  return names.filter((name) => !EXCLUDED.test(name));
}

/** Runs one scenario at one revision (forced when it is an extension's); resolves with its outcome for `judge`. */
function runScenario(command, specVersion, scenario, force) {
  const args = ['client', '--command', command, '--scenario', scenario];
  args.push('--spec-version', specVersion, '--timeout', String(SCENARIO_TIMEOUT_MS));
  if (force) args.push('--force');
  return suite.runSuite(args, async ({ output, code, outputDir }) => {
    // A scenario name with a slash (auth/…) nests its result folder one level deeper.
    const dir = (await readdir(outputDir, { recursive: true }))
      .find((entry) => entry.endsWith('checks.json'))
      ?.replace(/[/\\]?checks\.json$/, '');
    if (dir === undefined) {
      return { scenario, failed: [`no results written (suite exit ${code}):\n${output}`] };
    }
    const { failed, warnings } = await suite.readChecks(join(outputDir, dir, 'checks.json'));
    const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(output);
    const timedOut = output.includes('CLIENT TIMED OUT');
    if (exited || timedOut) {
      const stderr = await readFile(join(outputDir, dir, 'stderr.txt'), 'utf8').catch(() => '');
      const tail = stderr.trimEnd().split('\n').slice(-STDERR_LINES).join('\n      ');
      const how = timedOut ? `timed out after ${SCENARIO_TIMEOUT_MS} ms` : `exited ${exited[1]}`;
      failed.push(`client ${how}; its stderr ends:\n      ${tail}`);
    }
    return { scenario, failed, warnings };
  });
}

/** Runs `task` over `items`, at most `limit` at a time; results keep the items' order. */
async function mapLimit(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'spec-version': { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
    },
  });
  const wanted = values['spec-version'];
  const versions = wanted ? REVISIONS.filter((v) => wanted.includes(v)) : REVISIONS;
  if (versions.length === 0) throw new Error(`no run for spec version(s) ${wanted.join(', ')}`);
  const only = values.scenario;

  const started = Date.now();
  const problems = [];
  const expected = await suite.readExpected(EXPECTED_FILE, problems);
  const command = clientCommand();
  console.log(`conformance: ${suite.SUITE}, client scenarios`);
  const jobs = [];
  for (const specVersion of versions) {
    const scenarios = await listScenarios(specVersion);
    const forced = (EXTENSION_SCENARIOS[specVersion] ?? []).filter((s) => !scenarios.includes(s));
    for (const scenario of [...scenarios, ...forced]) {
      const force = forced.includes(scenario);
      if (!only || only.includes(scenario)) jobs.push({ specVersion, scenario, force });
    }
  }
  const outcomes = await mapLimit(jobs, CONCURRENCY, ({ specVersion, scenario, force }) =>
    runScenario(command, specVersion, scenario, force),
  );
  const rowsByVersion = new Map();
  for (const specVersion of versions) {
    const ran = outcomes.filter((_, i) => jobs[i].specVersion === specVersion);
    // A partial run (--scenario) cannot tell a stale entry from one it did not run.
    const judged = only
      ? new Map([...expected].filter(([key]) => ran.some((o) => key.endsWith(` ${o.scenario}`))))
      : expected;
    rowsByVersion.set(specVersion, suite.judge(specVersion, ran, judged, problems));
  }
  if (!wanted && !only) suite.checkListedVersions(expected, REVISIONS, problems);
  suite.conclude(rowsByVersion, problems, started);
}

suite.guard(GLOBAL_TIMEOUT_MS);
main().catch(suite.crashed);
