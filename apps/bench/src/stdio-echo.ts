/**
 * Large messages over stdio: one `echo` of a 1 KiB to 50 MiB string, request and answer, each
 * client and server on its default settings (no raised limits). A failure (an error, a lost
 * connection, no answer in time) is a row of its own, never dropped. For the large sizes every
 * pair is first tried once at the same time, so the ones that never answer cost one timeout in
 * all rather than one each; only the pairs that answered are then timed, alternating.
 */
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import type { DriverProcess } from './driver-process';
import type { Row, Section } from './report';
import { summarize } from './stats';
import { MiB, type StdioFleet } from './stdio-fleet';

/** Sizes from this one up are tried all at once first. */
const CONCURRENT_PROBE_BYTES = 10 * MiB;

interface EchoAnswer {
  ms: number;
  failure?: string;
}

/** `1 KiB`, `10 MiB`: the case name of a size. */
export function sizeLabel(bytes: number): string {
  return bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / 1024} KiB`;
}

/** Runs the echo cases on the fleet; the table, and each client's peak RSS afterwards. */
export async function runStdioEcho(
  fleet: StdioFleet,
  config: BenchConfig,
): Promise<{ echo: Section; clientPeaks: Map<string, number> }> {
  const count = fleet.pairs.length;
  const connected = new Array<boolean>(count).fill(false);
  const ensureOpen = async (i: number) => {
    if (!connected[i]) await fleet.open(i);
    connected[i] = true;
  };
  const echo = async (i: number, bytes: number): Promise<EchoAnswer> => {
    try {
      await ensureOpen(i);
      const { timeoutMs } = config.echo;
      const driver = fleet.drivers[i] as DriverProcess;
      const answer = await driver.send<EchoAnswer>('echo', { bytes, timeoutMs }, timeoutMs * 3);
      // The driver drops a connection that failed; the next echo reconnects.
      if (answer.failure) connected[i] = false;
      return answer;
    } catch (error) {
      connected[i] = false;
      return { ms: Number.NaN, failure: (error as Error).message };
    }
  };
  const rows: Row[] = [];
  for (const bytes of config.echo.sizes) {
    const failures = new Map<number, string>();
    if (bytes >= CONCURRENT_PROBE_BYTES) {
      for (let i = 0; i < count; i++) await ensureOpen(i).catch(() => {});
      const probes = await Promise.all(fleet.pairs.map((_, i) => echo(i, bytes)));
      probes.forEach((p, i) => {
        if (p.failure) failures.set(i, p.failure);
      });
    }
    const rounds = config.echo.rounds(bytes);
    const warmup = bytes >= CONCURRENT_PROBE_BYTES ? 0 : 1;
    const samples = await alternate(count, { rounds, warmup }, async (i) => {
      if (failures.has(i)) return Number.NaN;
      const answer = await echo(i, bytes);
      if (answer.failure) failures.set(i, answer.failure);
      return answer.ms;
    });
    fleet.pairs.forEach((pair, i) => {
      const failure = failures.get(i);
      const row: Row = { case: sizeLabel(bytes), implementation: pair.name, baseline: i === 0 };
      const times = (samples[i] ?? []).filter((ms) => !Number.isNaN(ms));
      rows.push(failure ? { ...row, failure } : { ...row, value: summarize(times) });
    });
  }
  const clientPeaks = new Map<string, number>();
  for (const [i, pair] of fleet.pairs.entries()) {
    const stats = await fleet.drivers[i]
      ?.send<{ maxRss: number }>('clientStats', { gc: false })
      .catch(() => undefined);
    if (stats) clientPeaks.set(pair.name, stats.maxRss / MiB);
  }
  return {
    echo: {
      id: 'stdio-echo',
      title: 'stdio large messages: echo of a string, request and answer, default settings',
      unit: 'ms',
      better: 'lower',
      notes: [
        `A string of the given size goes to the \`echo\` tool and comes back; the answer must equal it. No answer within ${config.echo.timeoutMs / 1000} s is a failure. From ${sizeLabel(CONCURRENT_PROBE_BYTES)} up, all pairs are tried once at the same time first (unrecorded) and only those that answered are timed.`,
      ],
      columns: [],
      rows,
    },
    clientPeaks,
  };
}
