/**
 * One call at a time with each client and its server held on one CPU (`taskset`). Unpinned,
 * a sequential round trip is mostly two wake-ups of a process on the other CPU, whose cost is
 * the machine's (on a VM it swings several-fold between runs and hosts) and the same for every
 * implementation; on one CPU the wall time per call is the two processes' CPU, so the ratios
 * read what each library costs.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { BenchConfig } from './config';
import { type Pair, STDIO_PAIRS } from './impls';
import type { Row } from './report';
import { startStdioFleet } from './stdio-fleet';
import { measureCase, openAndWarm } from './stdio-throughput';

export const ONE_CPU_CASE = '1 in flight, client and server on one CPU';

/** `taskset -c <last CPU>`, or why it cannot be used here. */
function pinLauncher(): string[] | { skipped: string } {
  if (process.platform !== 'linux') return { skipped: 'pinning to a CPU needs Linux' };
  const launcher = ['taskset', '-c', String(availableParallelism() - 1)];
  const probe = spawnSync(launcher[0] as string, [...launcher.slice(1), 'true']);
  return probe.status === 0 ? launcher : { skipped: 'taskset (util-linux) is not available' };
}

/** The rows of the one-CPU case for each pair, or one row per pair saying why there are none. */
export async function runOneCpuThroughput(
  config: BenchConfig,
  pairs: readonly Pair[] = STDIO_PAIRS,
): Promise<Row[]> {
  const launcher = pinLauncher();
  if (!Array.isArray(launcher)) {
    return pairs.map((pair, i) => ({
      case: ONE_CPU_CASE,
      implementation: pair.name,
      baseline: i === 0,
      failure: `skipped: ${launcher.skipped}`,
    }));
  }
  const fleet = await startStdioFleet(pairs, launcher);
  try {
    const failures = await openAndWarm(fleet, config);
    return await measureCase(fleet, 1, ONE_CPU_CASE, config, failures);
  } finally {
    await fleet.close();
  }
}
