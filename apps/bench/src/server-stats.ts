/** Statistics and Markdown rows of the server benchmark: median rate, latency percentiles, ratio. */

export interface LoadResult {
  perSecond: number;
  /** Latency of every operation, in ms. */
  latencies: number[];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

export const SERVER_TABLE_HEADER = [
  '| case | implementation | ops/s (median) | min–max | p50 ms | p99 ms | ratio (twofold ÷ official) |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
];

const rate = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * One row per contender: median ops/s over rounds with min–max, latency percentiles over all
 * rounds, and on the first contender's row its ratio to the second's median.
 */
export function summarize(
  name: string,
  contenders: readonly { name: string }[],
  results: readonly (readonly LoadResult[])[],
): string[] {
  const medians = results.map((rounds) => median(rounds.map((r) => r.perSecond)));
  return contenders.map((contender, i) => {
    const rounds = results[i] ?? [];
    const rates = rounds.map((r) => r.perSecond);
    const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const ratio = i === 0 ? `${((medians[0] ?? 0) / (medians[1] ?? 0)).toFixed(2)}×` : '';
    return `| ${name} | ${contender.name} | ${rate(medians[i] ?? 0)} | ${rate(Math.min(...rates))}–${rate(Math.max(...rates))} | ${percentile(latencies, 50).toFixed(3)} | ${percentile(latencies, 99).toFixed(3)} | ${ratio} |`;
  });
}
