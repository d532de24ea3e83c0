/**
 * stdio throughput and latency: each client keeps 1, 8 or 64 `tools/call` (echo of a short
 * text) in flight to its own long-lived server for one turn, pair after pair in alternation.
 * With 1 in flight the calls are sequential, so that row's p50 / p99 is the round-trip
 * latency. Afterwards, the peak RSS each client and server reached under this load.
 */
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import type { DriverProcess } from './driver-process';
import type { Row, Section } from './report';
import { mergeSorted, percentile, summarize } from './stats';
import { MiB, type ProcessStats, type StdioFleet } from './stdio-fleet';

/** The argument of every throughput call. */
export const CALL_TEXT = 'weather in Paris';

/** Case name of the throughput table for `inFlight` calls. */
export const throughputCase = (inFlight: number) =>
  inFlight === 1 ? '1 in flight (sequential)' : `${inFlight} in flight`;

interface Turn {
  perSecond: number;
  latencies: Float64Array;
  /** CPU µs per call of the client and of the server process over the turn. */
  clientCpu: number;
  serverCpu: number;
}

/** One timed turn of `inFlight` calls on a connected driver. */
export async function loadTurn(
  driver: DriverProcess,
  inFlight: number,
  durationMs: number,
): Promise<Turn> {
  const { elapsedMs, latencies, clientCpuMicros, serverCpuMicros } = await driver.send<{
    elapsedMs: number;
    latencies: Float64Array;
    clientCpuMicros: number;
    serverCpuMicros: number;
  }>('load', { inFlight, durationMs, text: CALL_TEXT, cpu: true });
  const calls = Math.max(1, latencies.length);
  return {
    perSecond: (latencies.length * 1000) / elapsedMs,
    latencies,
    clientCpu: clientCpuMicros / calls,
    serverCpu: serverCpuMicros / calls,
  };
}

/** Rows of one case from the turns of each contender (failures by index). */
export function loadRows(
  caseName: string,
  names: readonly string[],
  samples: readonly (readonly Turn[])[],
  failures: ReadonlyMap<number, string>,
): Row[] {
  return names.map((name, i) => {
    const turns = samples[i] ?? [];
    const failure = failures.get(i);
    if (failure) return { case: caseName, implementation: name, baseline: i === 0, failure };
    const sorted = mergeSorted(turns.map((t) => t.latencies));
    return {
      case: caseName,
      implementation: name,
      baseline: i === 0,
      value: summarize(turns.map((t) => t.perSecond)),
      extra: {
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        calls: sorted.length,
        clientCpu: summarize(turns.map((t) => t.clientCpu)).median,
        serverCpu: summarize(turns.map((t) => t.serverCpu)).median,
      },
    };
  });
}

/**
 * Connects every pair of `fleet` to a fresh server and gives it one unrecorded stretch of load
 * (the first case should not time a cold JIT); the pairs that failed, by index.
 */
export async function openAndWarm(
  fleet: StdioFleet,
  config: BenchConfig,
): Promise<Map<number, string>> {
  const failures = new Map<number, string>();
  for (let i = 0; i < fleet.pairs.length; i++) {
    await fleet.open(i).catch((error: Error) => failures.set(i, error.message));
    if (!failures.has(i)) {
      await loadTurn(fleet.drivers[i] as DriverProcess, 8, config.throughput.warmupMs).catch(
        (error: Error) => failures.set(i, error.message),
      );
    }
  }
  return failures;
}

/** The rows of one case: every pair's turns of `inFlight` calls, alternating. */
export async function measureCase(
  fleet: StdioFleet,
  inFlight: number,
  caseName: string,
  config: BenchConfig,
  failures: Map<number, string>,
): Promise<Row[]> {
  const { turnMs, rounds } = config.throughput;
  const samples = await alternate(
    fleet.pairs.length,
    { rounds, warmup: 1 },
    async (i, round): Promise<Turn> => {
      const empty = {
        perSecond: Number.NaN,
        latencies: new Float64Array(),
        clientCpu: Number.NaN,
        serverCpu: Number.NaN,
      };
      if (failures.has(i)) return empty;
      try {
        // Warm-up turns are short: they only need the JIT and the pipes warm.
        const ms = round < 0 ? Math.min(turnMs, 200) : turnMs;
        return await loadTurn(fleet.drivers[i] as DriverProcess, inFlight, ms);
      } catch (error) {
        failures.set(i, (error as Error).message);
        return empty;
      }
    },
  );
  return loadRows(
    caseName,
    fleet.pairs.map((p) => p.name),
    samples,
    failures,
  );
}

/** Runs the throughput cases, then reads the peak RSS of every client and server. */
export async function runStdioThroughput(
  fleet: StdioFleet,
  config: BenchConfig,
): Promise<{ throughput: Section; peaks: Map<string, { client: number; server: number }> }> {
  const rows: Row[] = [];
  const failures = await openAndWarm(fleet, config);
  const { turnMs, rounds } = config.throughput;
  for (const inFlight of config.throughput.inFlight) {
    rows.push(...(await measureCase(fleet, inFlight, throughputCase(inFlight), config, failures)));
  }
  const peaks = new Map<string, { client: number; server: number }>();
  for (const [i, pair] of fleet.pairs.entries()) {
    if (failures.has(i)) continue;
    const driver = fleet.drivers[i] as DriverProcess;
    const server = await driver.send<ProcessStats>('serverStats', { gc: false });
    const client = await driver.send<ProcessStats>('clientStats', { gc: false });
    peaks.set(pair.name, { client: client.maxRss / MiB, server: server.maxRss / MiB });
  }
  return {
    throughput: {
      id: 'stdio-throughput',
      title: 'stdio tools/call throughput and latency, each client against its own server',
      unit: 'calls/s',
      better: 'higher',
      notes: [
        `One turn: ${turnMs} ms of \`echo\` calls with the given number in flight; ${rounds} recorded turns per pair, alternating. p50 / p99: latency in ms over all recorded calls of the row.`,
        "CPU µs/call: user + system time each process spent over a turn, per call (median of the turns); at 1 in flight their sum beside the floor's shows what the library itself costs, apart from the pipe.",
        "_1 in flight, client and server on one CPU_: the same sequential calls with each client driver and the server it spawned held on one CPU (`taskset`), from drivers of their own. Unpinned, a sequential round trip is mostly two wake-ups of a process on the other CPU, whose cost belongs to the machine (on a VM it swings several-fold from run to run) and is the same for every library; on one CPU the time per call is the two processes' CPU, so these ratios read what each library costs.",
      ],
      columns: [
        { key: 'p50', header: 'p50 ms' },
        { key: 'p99', header: 'p99 ms', ratio: true },
        { key: 'calls', header: 'calls timed' },
        { key: 'clientCpu', header: 'client CPU µs/call', ratio: true },
        { key: 'serverCpu', header: 'server CPU µs/call', ratio: true },
      ],
      rows,
    },
    peaks,
  };
}
