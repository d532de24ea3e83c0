#!/usr/bin/env node
/**
 * Runs the MCP conformance suite against the everything server over HTTP, once per spec
 * revision, and judges the results against conformance/expected-failures.json:
 *   - a failing scenario that is not listed fails the run;
 *   - a listed scenario that passes (a stale entry) fails the run too, so the list only shrinks;
 *   - a run that produced no results (a failed download, a crashed suite) fails loudly.
 * Prints a pass table and always stops the server. Bounded by a global timeout.
 *
 * Usage: node scripts/conformance.mjs [--spec-version V]... (default: every revision below)
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  checkListedVersions,
  conclude,
  crashed,
  guard,
  judge,
  readChecks,
  readExpected,
  runSuite,
  SUITE,
  start,
  stopGroup,
} from '@twofold/conformance';

const APP = dirname(dirname(fileURLToPath(import.meta.url)));
const EXPECTED_FILE = join(APP, 'conformance', 'expected-failures.json');
const GLOBAL_TIMEOUT_MS = 25 * 60_000;
const SERVER_START_TIMEOUT_MS = 60_000;

/**
 * One suite run per revision. `--requirements` runs exactly what a revision requires plus its
 * not-scored scenarios (reported too); 2025-06-18 has no requirement set, so it runs the active
 * suite filtered to that revision.
 */
const RUNS = [
  { specVersion: '2026-07-28', args: ['--requirements', '2026-07-28'] },
  { specVersion: '2025-11-25', args: ['--requirements', '2025-11-25'] },
  { specVersion: '2025-06-18', args: ['--spec-version', '2025-06-18'] },
];

/**
 * Extension scenarios no requirement set includes (`conformance list` names them under no
 * revision): each runs on its own with `--force`, at the revisions given here.
 */
const EXTENSION_SCENARIOS = {
  '2026-07-28': [
    'sep-2640-skills-enumeration',
    'sep-2640-skills-manifest',
    'sep-2640-skills-directory',
  ],
};

/** Starts the everything server on a free loopback port; resolves with its URL. */
function startServer() {
  const tsx = join(APP, 'node_modules', '.bin', 'tsx');
  const server = start(tsx, ['src/main.ts', '--http', '--host', '127.0.0.1', '--port', '0'], {
    cwd: APP,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`server did not start in time:\n${stderr}`)),
      SERVER_START_TIMEOUT_MS,
    );
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], stop: () => stopGroup(server) });
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${stderr}`));
    });
  });
}

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Scenario → its checks, from the suite's per-scenario checks.json files. */
async function readResults(outputDir) {
  const results = new Map();
  for (const entry of await readdir(outputDir)) {
    if (!entry.startsWith('server-') || !TIMESTAMP.test(entry)) continue;
    const scenario = entry.slice('server-'.length).replace(TIMESTAMP, '');
    results.set(scenario, await readChecks(join(outputDir, entry, 'checks.json')));
  }
  return results;
}

/** Runs one revision and judges it: which scenarios ran (from the suite's own log), how each did. */
function runRevision(url, run, expected, problems) {
  return runSuite(['server', '--url', url, ...run.args], async ({ output, code, outputDir }) => {
    const announced = /Running .* \((\d+) scenarios\)/.exec(output);
    const ran = [...output.matchAll(/=== Running scenario: (\S+) ===/g)].map((m) => m[1]);
    if (!announced || ran.length === 0 || ran.length !== Number(announced[1])) {
      problems.push(
        `${run.specVersion}: the suite did not run (exit ${code}); its output:\n${output}`,
      );
      return [];
    }
    const results = await readResults(outputDir);
    const outcomes = ran.map((scenario) => ({
      scenario,
      ...(results.get(scenario) ?? { failed: ['no checks.json written'] }),
    }));
    for (const scenario of EXTENSION_SCENARIOS[run.specVersion] ?? []) {
      outcomes.push(await runForced(url, run.specVersion, scenario));
    }
    return judge(run.specVersion, outcomes, expected, problems);
  });
}

/** Runs one extension scenario with `--force`; resolves with its outcome for `judge`. */
function runForced(url, specVersion, scenario) {
  const args = ['server', '--url', url, '--scenario', scenario];
  args.push('--spec-version', specVersion, '--force');
  return runSuite(args, async ({ output, code, outputDir }) => {
    const checks = (await readResults(outputDir)).get(scenario);
    return {
      scenario,
      ...(checks ?? { failed: [`no checks.json written (exit ${code}):\n${output}`] }),
    };
  });
}

async function main() {
  const { values } = parseArgs({ options: { 'spec-version': { type: 'string', multiple: true } } });
  const wanted = values['spec-version'];
  const runs = wanted ? RUNS.filter((run) => wanted.includes(run.specVersion)) : RUNS;
  if (runs.length === 0) throw new Error(`no run for spec version(s) ${wanted.join(', ')}`);

  const started = Date.now();
  const problems = [];
  const expected = await readExpected(EXPECTED_FILE, problems);
  const rowsByVersion = new Map();
  const server = await startServer();
  console.log(`conformance: ${SUITE} against ${server.url}`);
  try {
    for (const run of runs) {
      const runStarted = Date.now();
      rowsByVersion.set(run.specVersion, await runRevision(server.url, run, expected, problems));
      console.log(
        `conformance: ${run.specVersion} done in ${Math.round((Date.now() - runStarted) / 1000)} s`,
      );
    }
  } finally {
    await server.stop();
  }
  if (!wanted)
    checkListedVersions(
      expected,
      RUNS.map((run) => run.specVersion),
      problems,
    );
  conclude(rowsByVersion, problems, started);
}

guard(GLOBAL_TIMEOUT_MS);
main().catch(crashed);
