/**
 * Sampling and Markdown rows of the client-connect benchmark: each contender connects from
 * scratch (spawn or TCP connect) until its first `tools/list` result, turn by turn in
 * alternation, and the table reports the median time with min–max, the processes each connect
 * started, and ratios to twofold pinned to the era and to the official client.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** What a contender does: connect and list tools; the promise resolves to its teardown. */
export type ConnectAndList = () => Promise<() => Promise<void>>;

export interface ConnectContender {
  name: string;
  /** The rows the others are compared to: twofold pinned to the era, the official client. */
  role?: 'pinned' | 'official';
  /** Most process starts one connect may take; more is reported as a finding. */
  maxStarts?: number;
  run: ConnectAndList;
}

export interface ConnectSample {
  /** From the start of the connect to the first `tools/list` result, in ms. */
  ms: number;
  /** Server processes started during the connect (stdio fixtures record theirs). */
  starts: number;
  /** Why the connect failed (then `ms` is NaN). */
  error?: string;
}

/** Counts fixture processes: each start appends a line to the file named by BENCH_SPAWN_LOG. */
export class SpawnLog {
  constructor(readonly path: string) {
    this.reset();
  }

  reset(): void {
    writeFileSync(this.path, '');
  }

  count(): number {
    return readFileSync(this.path, 'utf8').split('\n').filter(Boolean).length;
  }
}

async function sample(
  contender: ConnectContender,
  log: SpawnLog | undefined,
): Promise<ConnectSample> {
  log?.reset();
  const start = performance.now();
  let close: () => Promise<void>;
  try {
    close = await contender.run();
  } catch (error) {
    // A failed connect is kept as a finding of its row, not thrown: the others still count.
    return { ms: Number.NaN, starts: log?.count() ?? 0, error: (error as Error).message };
  }
  const ms = performance.now() - start;
  // Teardown is not timed, but it is awaited: no process of one turn overlaps the next.
  await close();
  return { ms, starts: log?.count() ?? 0 };
}

export interface SamplingOptions {
  /** Recorded connects per contender. */
  runs: number;
  /** Unrecorded connects per contender first (JIT, connection pools, file caches). */
  warmup: number;
}

/**
 * Warms every contender up, then runs each `runs` times, alternating the order of the
 * contenders from one round to the next.
 */
export async function sampleAlternating(
  contenders: readonly ConnectContender[],
  { runs, warmup }: SamplingOptions,
  log?: SpawnLog,
): Promise<ConnectSample[][]> {
  for (let i = 0; i < warmup; i++) {
    for (const contender of contenders) await sample(contender, log);
  }
  const samples = contenders.map(() => [] as ConnectSample[]);
  for (let round = 0; round < runs; round++) {
    const order = contenders.map((_, i) => (round % 2 === 0 ? i : contenders.length - 1 - i));
    for (const i of order) samples[i]?.push(await sample(contenders[i] as ConnectContender, log));
  }
  return samples;
}

export const CONNECT_TABLE_HEADER = [
  '| case | implementation | ms (median) | min–max | process starts | Δ vs twofold pinned (ms) | ÷ twofold pinned | ÷ official |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const span = (values: readonly number[]) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? `${low}` : `${low}–${high}`;
};

/** Rows of one case, and the findings (too many process starts) it produced. */
export function connectRows(
  caseName: string,
  contenders: readonly ConnectContender[],
  samples: readonly (readonly ConnectSample[])[],
  countsStarts: boolean,
): { rows: string[]; findings: string[] } {
  const medians = samples.map((s) => median(s.filter((x) => !x.error).map((x) => x.ms)));
  const baseline = (role: ConnectContender['role']) =>
    medians[contenders.findIndex((c) => c.role === role)];
  const pinned = baseline('pinned');
  const official = baseline('official');
  const findings: string[] = [];
  const rows = contenders.map((contender, i) => {
    const runs = samples[i] ?? [];
    const failed = runs.filter((x) => x.error);
    if (failed.length > 0) {
      findings.push(
        `${caseName} / ${contender.name}: ${failed.length} of ${runs.length} connects failed (${failed[0]?.error})`,
      );
    }
    const times = runs.filter((x) => !x.error).map((x) => x.ms);
    if (times.length === 0) {
      return `| ${caseName} | ${contender.name} | **failed** | – | – | – | – | – |`;
    }
    const starts = runs.map((x) => x.starts);
    const m = medians[i] ?? Number.NaN;
    const max = contender.maxStarts;
    if (countsStarts && max !== undefined) {
      const over = starts.filter((n) => n > max).length;
      if (over > 0) {
        findings.push(
          `${caseName} / ${contender.name}: ${over} of ${runs.length} connects started more than ${max} process(es)`,
        );
      }
    }
    const delta = pinned === undefined ? '' : `${m - pinned >= 0 ? '+' : ''}${ms(m - pinned)}`;
    const vsPinned = pinned === undefined ? '' : `${(m / pinned).toFixed(2)}×`;
    const vsOfficial = official === undefined ? '' : `${(m / official).toFixed(2)}×`;
    return `| ${caseName} | ${contender.name} | ${ms(m)} | ${ms(Math.min(...times))}–${ms(Math.max(...times))} | ${countsStarts ? span(starts) : '–'} | ${delta} | ${vsPinned} | ${vsOfficial} |`;
  });
  return { rows, findings };
}
