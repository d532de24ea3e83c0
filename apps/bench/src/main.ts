/**
 * `pnpm bench [--quick] [--json <path>] [--only <ids>]`: twofold beside the official MCP SDKs
 * (2.4.0 modern and legacy, 1.32.2) and a bare floor, in one run, alternating. Prints the
 * Markdown report, writes it to results/<date>.md, and the same as JSON with `--json`.
 * Installs nothing at run time. `--only stdio,http` runs some sections (for development).
 * `--only fuzz` and `--only soak` (never part of a plain run) check robustness instead, take
 * `--seed`, `--frames`, `--soak-seconds` and `--soak-clients`, and exit 1 on what they find.
 * `--only scale` (never part of a plain run either: it needs nginx and redis-server) measures the
 * everything server scaled out behind nginx; `--scale-concurrency` sets its requests in flight.
 * `--profile <rows>` writes V8 CPU profiles of those rows' processes to `--profile-dir`
 * (profiles/<timestamp>/ by default); such a run is marked as profiled and writes no results file.
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCliTime } from './cli-time';
import { runClientConnectBench } from './client-connect';
import { benchConfig } from './config';
import { processWarnings } from './driver-process';
import { runFootprint } from './footprint';
import { runFramerBench } from './framer';
import { runFuzz } from './fuzz/fuzz';
import { freshSeed } from './fuzz/prng';
import { runHttpBench } from './http-bench';
import { BENCH_DIR, HTTP_GROUPS, STDIO_PAIRS } from './impls';
import { runImportTime } from './import-time';
import { type RunReport, renderReport, runMeta, withoutLocalPaths, writeReport } from './output';
import { configureProfiling, listProfiles, type ProfilePlan } from './profiling';
import { runProtocolMicro } from './protocol-micro';
import { type Section, withRatios } from './report';
import { runScaleBench, SCALE_TITLE } from './scale';
import { runServerBench } from './server-bench';
import { runSoak } from './soak/soak';
import { runColdStart } from './stdio-cold-start';
import { runStdioEcho } from './stdio-echo';
import { startStdioFleet } from './stdio-fleet';
import { peakRssSection, runStdioMemory } from './stdio-memory';
import { runOneCpuThroughput } from './stdio-one-cpu';
import { runStdioThroughput } from './stdio-throughput';
import { checkTargets } from './targets';

const argv = process.argv.slice(2);
const flagValue = (flag: string) => {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
};
const quick = argv.includes('--quick');
const jsonArg = flagValue('--json');
// pnpm runs the script in apps/bench; a relative --json path means the caller's directory.
const callerPath = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
const jsonPath = jsonArg ? callerPath(jsonArg) : undefined;
const only = flagValue('--only')?.split(',');
const config = benchConfig(quick);
const numberFlag = (flag: string) => {
  const value = flagValue(flag);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${flag} needs a positive number, got ${value}`);
  return n;
};
const seed = numberFlag('--seed') ?? freshSeed();
const frames = numberFlag('--frames') ?? config.fuzz.frames;
const soakMs = (numberFlag('--soak-seconds') ?? config.soak.durationMs / 1000) * 1000;
const soakClients = numberFlag('--soak-clients') ?? config.soak.clients;
const scaleConcurrency = numberFlag('--scale-concurrency') ?? config.scale.concurrency;
const profile = profilePlan(flagValue('--profile'), flagValue('--profile-dir'));
configureProfiling(profile);
/** What the robustness parts found: any of it fails the run. */
const findings: string[] = [];
const started = performance.now();
const report: RunReport = {
  meta: runMeta(quick, only),
  targets: [],
  sections: [],
  components: [],
  warnings: [],
  errors: {},
};

/**
 * Runs one part unless `--only` leaves it out (an `optIn` part runs only when `--only` names
 * it); a part that throws is reported, not fatal.
 */
async function part(id: string, run: () => Promise<void>, optIn = false): Promise<void> {
  if (only ? !only.includes(id) : optIn) return;
  const start = performance.now();
  try {
    await run();
  } catch (error) {
    report.errors[id] = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  console.error(`bench: ${id} done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

/** Runs one step of a part, logging its duration to stderr (progress, not a result). */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await run();
  console.error(`bench:   ${name} done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

const add = (...sections: Section[]) => report.sections.push(...sections.map(withRatios));

await part('stdio', async () => {
  const fleet = await startStdioFleet();
  try {
    add(await step('cold start', () => runColdStart(fleet, config)));
    const { throughput, peaks } = await step('throughput', () => runStdioThroughput(fleet, config));
    throughput.rows.push(...(await step('one CPU', () => runOneCpuThroughput(config))));
    add(throughput);
    const { echo, clientPeaks } = await step('echo', () => runStdioEcho(fleet, config));
    add(echo, peakRssSection(fleet, peaks, clientPeaks));
    const { idle, leak } = await step('memory', () => runStdioMemory(fleet, config));
    add(idle, leak);
  } finally {
    await fleet.close();
  }
});
await part('http', async () => {
  const { raw, client } = await runHttpBench(config);
  add(raw, client);
});
await part('footprint', async () => {
  add(runFootprint(), await runImportTime(config));
});
await part('cli', async () => {
  add(await runCliTime(config));
});
await part('micro', async () => {
  const markdown = runProtocolMicro(quick);
  report.components.push({
    id: 'micro',
    title:
      'Wire layer: parse + validate (higher is better; ratio > 1 means faster than the official core)',
    markdown,
  });
});
await part('framer', async () => {
  const markdown = runFramerBench(quick);
  report.components.push({
    id: 'framer',
    title: 'stdio framing: one message fed in 64 KiB chunks (lower ms/MiB is better)',
    markdown,
  });
});
await part('server', async () => {
  const markdown = await runServerBench(quick);
  report.components.push({
    id: 'server',
    title:
      'Server alone: tools/call over HTTP (50 tools) and stdio, twofold beside the official SDK 2.4.0 (ratio: twofold ÷ official, higher is better)',
    markdown,
  });
});
await part('connect', async () => {
  const markdown = await runClientConnectBench(quick);
  report.components.push({
    id: 'connect',
    title:
      'Client connect → first tools/list against the same server: era detection (`auto`) beside a pinned era and the official client 2.4.0 (lower ms is better)',
    markdown,
  });
});

await part(
  'fuzz',
  async () => {
    console.error(`bench: fuzz seed ${seed}, ${frames} frames per transport`);
    const { markdown, failures } = await runFuzz({ frames, seed, oversized: true });
    findings.push(...failures);
    report.components.push({
      id: 'fuzz',
      title:
        'Fuzz: hostile frames against the server over stdio and HTTP, hostile servers against the client',
      markdown: withFindings(markdown, failures),
    });
  },
  true,
);
await part(
  'soak',
  async () => {
    const { markdown, failures } = await runSoak({ durationMs: soakMs, clients: soakClients });
    findings.push(...failures);
    report.components.push({
      id: 'soak',
      title: `Soak: ${soakClients} concurrent clients against one server`,
      markdown: withFindings(markdown, failures),
    });
  },
  true,
);
await part(
  'scale',
  async () => {
    const { markdown } = await runScaleBench({ ...config.scale, concurrency: scaleConcurrency });
    report.components.push({ id: 'scale', title: SCALE_TITLE, markdown });
  },
  true,
);

/** The `--profile` rows (checked against the tables' rows) and their directory, if asked. */
function profilePlan(rows: string | undefined, dir: string | undefined): ProfilePlan | undefined {
  if (rows === undefined) return undefined;
  const known = new Set(
    [...STDIO_PAIRS, ...HTTP_GROUPS.flatMap((g) => g.pairs)].map((p) => p.name),
  );
  const chosen = rows.split(',').map((row) => row.trim());
  const unknown = chosen.filter((row) => !known.has(row));
  if (unknown.length > 0) {
    throw new Error(`--profile: no row ${unknown.join(', ')}; rows: ${[...known].join(', ')}`);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return { rows: chosen, dir: dir ? callerPath(dir) : resolve(BENCH_DIR, 'profiles', stamp) };
}

/** Says at the top, and in every table with a profiled row, that profiling slowed those rows. */
function markProfiled(rows: readonly string[]): void {
  const names = rows.map((row) => `_${row}_`).join(', ');
  report.meta.notes.push(
    `**Profiled run**: the processes of ${names} ran under the V8 CPU profiler, which slows them and loads the machine: read no figure of this run as a result.`,
  );
  for (const section of report.sections) {
    if (section.rows.some((row) => rows.includes(row.implementation))) {
      section.notes.unshift(`**Profiled**: ${names} ran under the CPU profiler (slower).`);
    }
  }
}

/** A robustness section's Markdown followed by what it found (or that it found nothing). */
function withFindings(markdown: string, failures: readonly string[]): string {
  const verdict =
    failures.length === 0
      ? '**Found nothing**: no crash, no missing or duplicate answer, no unbounded wait.'
      : ['**Found**:', '', ...failures.map((f) => `- ${f}`)].join('\n');
  return `${markdown}\n\n${verdict}`;
}

report.targets = checkTargets(report.sections);
report.warnings = processWarnings;
report.meta.seconds = (performance.now() - started) / 1000;
if (profile) markProfiled(profile.rows);
const markdown = renderReport(report);
console.log(withoutLocalPaths(markdown));
// A partial (--only) or profiled run does not replace the day's results file.
const written = writeReport(report, markdown, { results: !only && !profile, json: jsonPath });
console.error(`bench: wrote ${written.join(' and ') || 'nothing'}`);
if (profile) {
  const profiles = listProfiles(profile.dir);
  console.error(`bench: ${profiles.length} CPU profiles in ${profile.dir}`);
  for (const p of profiles)
    console.error(`bench:   ${p.path} (${p.bytes.toLocaleString('en-US')} B)`);
}

// A robustness part that found something, or could not finish, fails the run.
const robustnessErrors = ['fuzz', 'soak'].filter((id) => report.errors[id] !== undefined);
if (findings.length > 0 || robustnessErrors.length > 0) {
  for (const finding of findings) console.error(`bench: found: ${finding}`);
  for (const id of robustnessErrors) console.error(`bench: ${id} did not finish`);
  process.exitCode = 1;
}
