/**
 * Memory over stdio: the peak RSS clients and servers reached under the throughput load (and
 * the clients after the large echoes), idle server RSS, and a leak check: the server's RSS and
 * heap, each read after a forced GC, once after a warm-up and again after N more calls.
 */
import type { BenchConfig } from './config';
import type { DriverProcess } from './driver-process';
import type { Row, Section } from './report';
import type { Stat } from './stats';
import { MiB, type ProcessStats, type StdioFleet } from './stdio-fleet';
import { CALL_TEXT } from './stdio-throughput';

/** Heap growth (after GC) above this is reported as growth rather than noise. */
export const LEAK_NOISE_BYTES = MiB;

const single = (n: number): Stat => ({ median: n, min: n, max: n, n: 1 });

/** The peak-RSS table from what the throughput and echo sections read. */
export function peakRssSection(
  fleet: StdioFleet,
  peaks: ReadonlyMap<string, { client: number; server: number }>,
  clientAfterEcho: ReadonlyMap<string, number>,
): Section {
  const rows: Row[] = fleet.pairs.map((pair, i) => {
    const peak = peaks.get(pair.name);
    const row: Row = { case: 'throughput load', implementation: pair.name, baseline: i === 0 };
    if (!peak) return { ...row, failure: 'no throughput run' };
    return {
      ...row,
      value: single(peak.server),
      extra: { client: peak.client, clientEcho: clientAfterEcho.get(pair.name) },
    };
  });
  return {
    id: 'stdio-peak-rss',
    title: 'stdio peak RSS of server and client (MiB)',
    unit: 'server peak RSS MiB',
    better: 'lower',
    notes: [
      'Peak resident set (`process.resourceUsage().maxRSS`) of the long-lived server and of the client driver process after the throughput turns (1, 8 and 64 in flight); the last column is the client after the large-message echoes too. One reading per process.',
    ],
    columns: [
      { key: 'client', header: 'client peak RSS MiB', ratio: true },
      { key: 'clientEcho', header: 'client peak after echoes MiB' },
    ],
    rows,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Idle RSS of a fresh server, then the leak check; two tables. */
export async function runStdioMemory(
  fleet: StdioFleet,
  config: BenchConfig,
): Promise<{ idle: Section; leak: Section }> {
  const calls = config.leakCalls;
  const warmCalls = Math.round(calls / 10);
  const idleRows: Row[] = [];
  const leakRows: Row[] = [];
  const leakCase = `${calls.toLocaleString('en-US')} calls`;
  const read = (i: number) =>
    (fleet.drivers[i] as DriverProcess).send<ProcessStats>('serverStats', { gc: true });
  const failures = new Map<number, string>();
  // Fresh servers, all idle at once: each reading is of a process that has served one call.
  await Promise.all(
    fleet.pairs.map((_, i) => fleet.open(i).catch((e: Error) => failures.set(i, e.message))),
  );
  await pause(200);
  for (const [i, pair] of fleet.pairs.entries()) {
    const base = { case: 'fresh server', implementation: pair.name, baseline: i === 0 };
    const idle = failures.has(i) ? undefined : await read(i).catch(() => undefined);
    idleRows.push(
      idle
        ? { ...base, value: single(idle.rss / MiB) }
        : { ...base, failure: failures.get(i) ?? 'no reading' },
    );
  }
  // The leak check reads memory, not time: the servers take their calls at the same time.
  const checks = await Promise.all(
    fleet.pairs.map(async (pair, i): Promise<Row> => {
      const base = { case: leakCase, implementation: pair.name, baseline: i === 0 };
      const driver = fleet.drivers[i] as DriverProcess;
      const run = (n: number) =>
        driver.send('run', { inFlight: 16, calls: n, text: CALL_TEXT }, 600_000);
      try {
        if (failures.has(i)) throw new Error(failures.get(i));
        await run(warmCalls);
        const before = await read(i);
        await run(calls);
        const after = await read(i);
        const growth = after.heapUsed - before.heapUsed;
        return {
          ...base,
          value: single(after.heapUsed / MiB),
          extra: {
            heapBefore: before.heapUsed / MiB,
            growth: growth / 1024,
            rssBefore: before.rss / MiB,
            rssAfter: after.rss / MiB,
            verdict: growth > LEAK_NOISE_BYTES ? '**grows**' : 'flat',
          },
        };
      } catch (error) {
        return { ...base, failure: (error as Error).message };
      }
    }),
  );
  leakRows.push(...checks);
  const quickNote = config.quick
    ? ` (quick mode: ${calls.toLocaleString('en-US')} calls instead of 100,000)`
    : '';
  return {
    idle: {
      id: 'memory-idle',
      title: 'Idle server RSS (MiB)',
      unit: 'RSS MiB',
      better: 'lower',
      notes: [
        'A freshly spawned stdio server after its connection opened and one call, read after a forced GC (`--expose-gc`) through its `bench_stats` tool.',
      ],
      columns: [],
      rows: idleRows,
    },
    leak: {
      id: 'memory-leak',
      title: `Leak check: server heap after ${calls.toLocaleString('en-US')} calls${quickNote}`,
      unit: 'heap MiB after',
      better: 'lower',
      notes: [
        `Server heap used and RSS after a forced GC, read after ${warmCalls.toLocaleString('en-US')} warm-up calls (before) and after ${calls.toLocaleString('en-US')} more (after), 16 in flight; all servers take their calls at the same time (this is a memory reading, not a timing). Growth of the heap beyond ${LEAK_NOISE_BYTES / MiB} MiB counts as growth; below it is noise.`,
      ],
      columns: [
        { key: 'heapBefore', header: 'heap MiB before' },
        { key: 'growth', header: 'heap growth KiB' },
        { key: 'rssBefore', header: 'RSS MiB before' },
        { key: 'rssAfter', header: 'RSS MiB after' },
        { key: 'verdict', header: 'verdict' },
      ],
      rows: leakRows,
    },
  };
}
