/**
 * The fuzz section: seeded hostile frames against twofold's server over stdio and HTTP, then
 * twofold's client against hostile servers. Returns the section's Markdown and what fails the
 * run (a crash, a missing, duplicate or wrong answer, a wait that did not end in its bound).
 */
import { USAGE_HEADER, usageRow } from '../process-usage';
import { hostileTable, runHostile } from './hostile';
import { fuzzHttp } from './http-fuzz';
import { Prng } from './prng';
import { type FuzzRun, fuzzStdio } from './stdio-fuzz';
import { renderDefects, TALLY_HEADER } from './tally';

export interface FuzzOptions {
  /** Frames per transport. */
  frames: number;
  seed: number;
  /**
   * Whether to send the frames that go past the server's message limit (64 MiB over stdio,
   * 4 MiB over HTTP): on by default, off where memory is tight.
   */
  oversized: boolean;
}

function runFailures(run: FuzzRun): string[] {
  const { transport } = run.tally;
  const totals = run.tally.totals();
  const found = run.crashed ? [`${transport} server: ${run.crashed}`] : [];
  for (const verdict of ['missing', 'duplicate', 'wrong'] as const) {
    if (totals[verdict] > 0) found.push(`${transport}: ${totals[verdict]} ${verdict} answers`);
  }
  return found;
}

/** Runs the whole fuzz section. */
export async function runFuzz(
  options: FuzzOptions,
): Promise<{ markdown: string; failures: string[] }> {
  const runs = [
    await fuzzStdio(new Prng(options.seed), options.frames, options.oversized),
    await fuzzHttp(new Prng(options.seed), options.frames, options.oversized),
  ];
  const hostile = await runHostile();
  const failures = [
    ...runs.flatMap(runFailures),
    ...hostile
      .filter((c) => c.defect)
      .map((c) => `client vs ${c.transport} ${c.mode} server: ${c.defect}`),
  ];
  const defects = runs.flatMap((run) => run.tally.defects);
  const markdown = [
    `Seed **${options.seed}**, ${options.frames} frames per transport (replay: \`pnpm bench --only fuzz --seed ${options.seed} --frames ${options.frames}\`). Server: the benchmark's twofold server, a child process; ${runs.map((r) => `${r.tally.transport} ${r.crashed ? `**${r.crashed}**` : 'survived'}`).join(', ')}. Over stdio, errors without an id are matched to the frames expecting one in the order they come.`,
    '',
    ...TALLY_HEADER,
    ...runs.flatMap((run) => run.tally.rows()),
    '',
    ...USAGE_HEADER,
    ...runs.map((run) => usageRow(`${run.tally.transport} server`, run.before, run.after)),
    '',
    ...(defects.length > 0
      ? [
          'Frames that did not get what they should (the first of each run):',
          '',
          ...renderDefects(defects),
          '',
        ]
      : []),
    "twofold's client against hostile servers (the spoiled call bounded at 2 s, the flood at 15 s; client fds counted in its own process, before connecting and after closing):",
    '',
    ...hostileTable(hostile),
  ].join('\n');
  return { markdown, failures };
}
