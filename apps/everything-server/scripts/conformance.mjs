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
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
// The suite needs Node 22; npx brings it for this run only, without a global install.
const NODE = 'node@22';
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

const children = new Set();

function stopChildren() {
  for (const child of children) {
    // Each child leads its own process group: end npx and everything it started.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function start(command, args, options = {}) {
  const child = spawn(command, args, { detached: true, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

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

function stopGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    process.kill(-child.pid, 'SIGTERM');
  });
}

const quote = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;

/** Runs the suite once; resolves with its output and the results directory. */
async function runSuite(url, run) {
  const outputDir = await mkdtemp(join(tmpdir(), `conformance-${run.specVersion}-`));
  const command = ['conformance', 'server', '--url', url, ...run.args, '-o', outputDir]
    .map(quote)
    .join(' ');
  const child = start('npx', ['-y', '-p', NODE, '-p', SUITE, '-c', command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise((resolve) => child.once('exit', (c, s) => resolve(c ?? s)));
  return { output, outputDir, code };
}

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Scenario → failing check ids, from the suite's per-scenario checks.json files. */
async function readResults(outputDir) {
  const results = new Map();
  for (const entry of await readdir(outputDir)) {
    if (!entry.startsWith('server-') || !TIMESTAMP.test(entry)) continue;
    const scenario = entry.slice('server-'.length).replace(TIMESTAMP, '');
    const checks = JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8'));
    const failed = checks
      .filter((check) => check.status === 'FAILURE')
      .map((check) => `${check.id}: ${String(check.errorMessage ?? '').slice(0, 300)}`);
    results.set(scenario, failed);
  }
  return results;
}

/** Judges one run: which scenarios ran (from the suite's own log) and how each did. */
async function judgeRun(run, suite, expected, problems) {
  const announced = /Running .* \((\d+) scenarios\)/.exec(suite.output);
  const ran = [...suite.output.matchAll(/=== Running scenario: (\S+) ===/g)].map((m) => m[1]);
  if (!announced || ran.length === 0 || ran.length !== Number(announced[1])) {
    problems.push(
      `${run.specVersion}: the suite did not run (exit ${suite.code}); its output:\n${suite.output}`,
    );
    return [];
  }
  const results = await readResults(suite.outputDir);
  const rows = [];
  for (const scenario of ran) {
    const failed = results.get(scenario) ?? ['no checks.json written'];
    const listed = expected.get(`${run.specVersion} ${scenario}`);
    const passed = failed.length === 0;
    rows.push({ scenario, passed, expected: listed !== undefined, failed });
    if (!passed && !listed) {
      problems.push(
        `${run.specVersion} ${scenario}: unexpected failure\n    ${failed.join('\n    ')}`,
      );
    }
    if (passed && listed) {
      problems.push(
        `${run.specVersion} ${scenario}: passes now; remove it from expected-failures.json`,
      );
    }
  }
  for (const key of expected.keys()) {
    const [specVersion, scenario] = key.split(' ');
    if (specVersion === run.specVersion && !ran.includes(scenario)) {
      problems.push(`${key}: listed as an expected failure but the suite no longer runs it`);
    }
  }
  return rows;
}

/** Reads and checks the expected-failures list: `{ scenario, specVersion, reason }` each. */
async function readExpected(problems) {
  const entries = JSON.parse(await readFile(EXPECTED_FILE, 'utf8'));
  const expected = new Map();
  for (const entry of Array.isArray(entries) ? entries : [null]) {
    const valid =
      typeof entry?.scenario === 'string' &&
      typeof entry?.specVersion === 'string' &&
      typeof entry?.reason === 'string' &&
      entry.reason.trim() !== '';
    if (!valid) {
      problems.push(`expected-failures.json: malformed entry ${JSON.stringify(entry)}`);
      continue;
    }
    expected.set(`${entry.specVersion} ${entry.scenario}`, entry.reason);
  }
  return expected;
}

function printTable(rowsByVersion) {
  const versions = [...rowsByVersion.keys()];
  const scenarios = [
    ...new Set([...rowsByVersion.values()].flatMap((rows) => rows.map((r) => r.scenario))),
  ];
  const cell = (version, scenario) => {
    const row = rowsByVersion.get(version).find((r) => r.scenario === scenario);
    if (!row) return '-';
    if (row.passed) return 'pass';
    return row.expected ? 'FAIL (expected)' : 'FAIL';
  };
  const width = Math.max(...scenarios.map((s) => s.length), 8);
  const line = (cells) => cells.map((c, i) => c.padEnd(i === 0 ? width : 16)).join(' | ');
  console.log(`\n${line(['scenario', ...versions])}`);
  console.log(line(['-'.repeat(width), ...versions.map(() => '-'.repeat(16))]));
  for (const scenario of scenarios) {
    console.log(line([scenario, ...versions.map((v) => cell(v, scenario))]));
  }
  for (const version of versions) {
    const rows = rowsByVersion.get(version);
    const passed = rows.filter((r) => r.passed).length;
    const known = rows.filter((r) => !r.passed && r.expected).length;
    console.log(
      `${version}: ${passed}/${rows.length} scenarios pass, ${known} expected failures, ${rows.length - passed - known} unexpected`,
    );
  }
}

async function main() {
  const { values } = parseArgs({ options: { 'spec-version': { type: 'string', multiple: true } } });
  const wanted = values['spec-version'];
  const runs = wanted ? RUNS.filter((run) => wanted.includes(run.specVersion)) : RUNS;
  if (runs.length === 0) throw new Error(`no run for spec version(s) ${wanted.join(', ')}`);

  const started = Date.now();
  const problems = [];
  const expected = await readExpected(problems);
  const rowsByVersion = new Map();
  const server = await startServer();
  console.log(`conformance: ${SUITE} against ${server.url}`);
  try {
    for (const run of runs) {
      const runStarted = Date.now();
      const suite = await runSuite(server.url, run);
      try {
        rowsByVersion.set(run.specVersion, await judgeRun(run, suite, expected, problems));
      } finally {
        await rm(suite.outputDir, { recursive: true, force: true });
      }
      console.log(
        `conformance: ${run.specVersion} done in ${Math.round((Date.now() - runStarted) / 1000)} s`,
      );
    }
  } finally {
    await server.stop();
  }
  if (!wanted) {
    for (const key of expected.keys()) {
      if (!runs.some((run) => key.startsWith(`${run.specVersion} `))) {
        problems.push(`${key}: listed for a spec version this script does not run`);
      }
    }
  }
  printTable(rowsByVersion);
  console.log(`conformance: total ${Math.round((Date.now() - started) / 1000)} s`);
  if (problems.length > 0) {
    console.error(`\nconformance: FAILED\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log('conformance: OK (every failure is an expected one, and none is stale)');
  }
}

const deadline = setTimeout(() => {
  console.error(`conformance: gave up after ${GLOBAL_TIMEOUT_MS / 60_000} minutes`);
  stopChildren();
  process.exit(1);
}, GLOBAL_TIMEOUT_MS);
deadline.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopChildren();
    process.exit(1);
  });
}

main().catch((error) => {
  console.error(`conformance: ${error instanceof Error ? error.stack : error}`);
  stopChildren();
  process.exitCode = 1;
});
