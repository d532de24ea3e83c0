/**
 * CLI wall time: `twofold --help` and `twofold tools list <stdio server>` beside
 * `@modelcontextprotocol/inspector-cli` doing the same (`--help`; `--cli <command> --method
 * tools/list`), each a fresh process against twofold's stdio benchmark server. The twofold CLI
 * is found through packages/cli/package.json `bin`; until it is built its rows say so.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import { BENCH_DIR, TWOFOLD } from './impls';
import type { Row, Section } from './report';
import { summarize } from './stats';

export const CLI_SKIPPED = 'skipped: the twofold CLI is not built';
const CLI_PACKAGE = fileURLToPath(new URL('../../../packages/cli/', import.meta.url));

/** The twofold CLI's bin script, if packages/cli declares one and it exists. */
export function twofoldBin(): string | undefined {
  const manifest = join(CLI_PACKAGE, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const path = typeof bin === 'string' ? bin : (bin?.twofold ?? Object.values(bin ?? {})[0]);
  const full = path ? join(CLI_PACKAGE, path) : undefined;
  return full && existsSync(full) ? full : undefined;
}

/** The inspector CLI's bin script. */
function inspectorBin(): string {
  const require = createRequire(join(BENCH_DIR, 'package.json'));
  const manifest = realpathSync(
    require.resolve('@modelcontextprotocol/inspector-cli/package.json'),
  );
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), Object.values(bin)[0] as string);
}

interface Command {
  args: string[];
  cwd: string;
  /** The output must contain this, so a wrong invocation fails instead of timing an error. */
  expect: string;
}

function timeOnce(command: Command): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, command.args, {
    cwd: command.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - start;
      if (code === 0 && out.includes(command.expect)) resolve(ms);
      else
        reject(
          new Error(`\`${command.args.slice(1).join(' ')}\` exited ${code}: ${out.slice(0, 120)}`),
        );
    });
  });
}

/** The CLI table. */
export async function runCliTime(config: BenchConfig): Promise<Section> {
  const server = TWOFOLD.server;
  const ours = twofoldBin();
  const inspector = inspectorBin();
  // The inspector reads its own package.json through a path relative to the working
  // directory (`../package.json`): it only works when run from its build directory.
  const inspectorCwd = dirname(inspector);
  const cases: { name: string; twofold?: Command; inspector: Command }[] = [
    {
      name: '--help',
      twofold: ours ? { args: [ours, '--help'], cwd: BENCH_DIR, expect: 'tools' } : undefined,
      inspector: { args: [inspector, '--help'], cwd: inspectorCwd, expect: 'Usage' },
    },
    {
      name: 'tools list (stdio server)',
      twofold: ours
        ? {
            args: [ours, 'tools', 'list', '--', process.execPath, server],
            cwd: BENCH_DIR,
            expect: 'echo',
          }
        : undefined,
      inspector: {
        args: [inspector, '--cli', process.execPath, server, '--method', 'tools/list'],
        cwd: inspectorCwd,
        expect: 'echo',
      },
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    const commands = [c.twofold, c.inspector];
    const failures = new Map<number, string>();
    const samples = await alternate(2, { rounds: config.cli.rounds, warmup: 1 }, async (i) => {
      const command = commands[i];
      if (!command || failures.has(i)) return Number.NaN;
      return timeOnce(command).catch((error: Error) => {
        failures.set(i, error.message);
        return Number.NaN;
      });
    });
    ['twofold', 'inspector-cli 1.0.3'].forEach((name, i) => {
      const row: Row = { case: c.name, implementation: name, baseline: i === 0 };
      const failure = failures.get(i);
      if (!commands[i]) rows.push({ ...row, skipped: CLI_SKIPPED });
      else
        rows.push(failure ? { ...row, failure } : { ...row, value: summarize(samples[i] ?? []) });
    });
  }
  return {
    id: 'cli',
    title: 'CLI: wall time of one command',
    unit: 'ms',
    better: 'lower',
    notes: [
      `A fresh process per sample, ${config.cli.rounds} per command, alternating; spawn to exit. \`tools list\` lists the tools of twofold's stdio benchmark server; \`@modelcontextprotocol/inspector-cli\` runs as \`node <bin> --cli <command> --method tools/list\`. twofold's form is \`twofold tools list -- <command>\`.`,
    ],
    columns: [],
    rows,
  };
}
