/**
 * What the everything server's and the everything client's conformance runs share: running the
 * MCP conformance suite through npx (with the Node it needs), the child processes it leaves
 * behind, and the verdict against an app's conformance/expected-failures.json:
 *   - a failing scenario that is not listed fails the run;
 *   - a listed scenario that passes (a stale entry) fails the run too, so the list only shrinks;
 *   - a listed scenario the suite no longer runs, or one for a revision no run covers, fails it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The suite, pinned: a new version is a deliberate change, reviewed with its results. */
export const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
// The suite needs Node 22; npx brings it for the suite's run only, without a global install.
const NODE = 'node@22';

const children = new Set();

/** Spawns a child leading its own process group, so stopping it ends all it started. */
export function start(command, args, options = {}) {
  const child = spawn(command, args, { detached: true, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops one child's process group; resolves when it has exited. */
export function stopGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    process.kill(-child.pid, 'SIGTERM');
  });
}

function stopChildren() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Bounds the whole run, and stops every child on a timeout or a signal. */
export function guard(timeoutMs) {
  const deadline = setTimeout(() => {
    console.error(`conformance: gave up after ${timeoutMs / 60_000} minutes`);
    stopChildren();
    process.exit(1);
  }, timeoutMs);
  deadline.unref();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stopChildren();
      process.exit(1);
    });
  }
}

/** Reports a crash of the run itself and stops every child. */
export function crashed(error) {
  console.error(`conformance: ${error instanceof Error ? error.stack : error}`);
  stopChildren();
  process.exitCode = 1;
}

const quote = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;

/** Runs `conformance <args>` once; resolves with its output (stdout and stderr) and exit code. */
export async function runConformance(args, options = {}) {
  const command = ['conformance', ...args].map(quote).join(' ');
  const child = start('npx', ['-y', '-p', NODE, '-p', SUITE, '-c', command], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
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
  return { output, code };
}

/**
 * Runs `conformance <args> -o <dir>` once and hands `inspect` its output, exit code and results
 * directory; the directory is removed afterwards.
 */
export async function runSuite(args, inspect, options = {}) {
  const outputDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  try {
    const { output, code } = await runConformance([...args, '-o', outputDir], options);
    return await inspect({ output, code, outputDir });
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/** The statuses of checks that reached a verdict (`SKIPPED` and `INFO` did not). */
const VERDICTS = new Set(['SUCCESS', 'FAILURE', 'WARNING']);

/**
 * The failed (`FAILURE`) and warned (`WARNING`) checks of one scenario's checks.json. A scenario
 * none of whose checks reached a verdict (all skipped) fails too: it proved nothing.
 */
export async function readChecks(file) {
  const checks = JSON.parse(await readFile(file, 'utf8'));
  const describe = (check) => {
    const why = check.errorMessage ?? check.details?.message ?? check.description ?? '';
    return `${check.id}: ${String(why).slice(0, 300)}`;
  };
  const failed = checks.filter((check) => check.status === 'FAILURE').map(describe);
  if (!checks.some((check) => VERDICTS.has(check.status))) {
    const skipped = checks.find((check) => check.status === 'SKIPPED');
    failed.push(`no check ran${skipped ? ` (${describe(skipped)})` : ''}`);
  }
  return {
    failed,
    warnings: checks.filter((check) => check.status === 'WARNING').map(describe),
  };
}

/** Reads and checks an expected-failures list: `{ scenario, specVersion, reason }` each. */
export async function readExpected(file, problems) {
  const entries = JSON.parse(await readFile(file, 'utf8'));
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

/**
 * Judges one revision's outcomes (`{ scenario, failed, warnings? }` each, in run order) against
 * the expected failures; returns the table rows.
 */
export function judge(specVersion, outcomes, expected, problems) {
  const rows = [];
  for (const { scenario, failed, warnings = [] } of outcomes) {
    const listed = expected.has(`${specVersion} ${scenario}`);
    const passed = failed.length === 0;
    rows.push({ scenario, passed, expected: listed, failed, warnings });
    if (!passed && !listed) {
      problems.push(`${specVersion} ${scenario}: unexpected failure\n    ${failed.join('\n    ')}`);
    }
    if (passed && listed) {
      problems.push(
        `${specVersion} ${scenario}: passes now; remove it from expected-failures.json`,
      );
    }
  }
  for (const key of expected.keys()) {
    const [version, scenario] = key.split(' ');
    if (version === specVersion && !outcomes.some((o) => o.scenario === scenario)) {
      problems.push(`${key}: listed as an expected failure but the suite no longer runs it`);
    }
  }
  return rows;
}

/** Entries listed for a revision none of `specVersions` covers are stale too. */
export function checkListedVersions(expected, specVersions, problems) {
  for (const key of expected.keys()) {
    if (!specVersions.some((version) => key.startsWith(`${version} `))) {
      problems.push(`${key}: listed for a spec version this script does not run`);
    }
  }
}

function printTable(rowsByVersion) {
  const versions = [...rowsByVersion.keys()];
  const scenarios = [
    ...new Set([...rowsByVersion.values()].flatMap((rows) => rows.map((r) => r.scenario))),
  ];
  const cell = (version, scenario) => {
    const row = rowsByVersion.get(version).find((r) => r.scenario === scenario);
    if (!row) return '-';
    if (row.passed) return row.warnings.length > 0 ? 'pass (warnings)' : 'pass';
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
    for (const row of rows.filter((r) => r.passed && r.warnings.length > 0)) {
      console.log(`  ${row.scenario} warns (SHOULD-level):\n    ${row.warnings.join('\n    ')}`);
    }
  }
}

/** Prints the table and the verdict; a problem makes the process fail. */
export function conclude(rowsByVersion, problems, started) {
  printTable(rowsByVersion);
  console.log(`conformance: total ${Math.round((Date.now() - started) / 1000)} s`);
  if (problems.length > 0) {
    console.error(`\nconformance: FAILED\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log('conformance: OK (every failure is an expected one, and none is stale)');
  }
}
