/** Order statistics shared by the sections: median with min–max, latency percentiles. */

/** Median, min and max of a set of samples, and how many there were. */
export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** The `p`th percentile (nearest rank) of values sorted ascending; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100));
  return sorted[rank] ?? Number.NaN;
}

/** Median (mean of the middle two for an even count), min and max of `values`. */
export function summarize(values: readonly number[]): Stat {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = Number.isInteger(mid)
    ? ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2
    : (sorted[Math.floor(mid)] ?? Number.NaN);
  return {
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    n: sorted.length,
  };
}

/** All latencies of several turns, sorted ascending, ready for {@link percentile}. */
export function mergeSorted(turns: readonly ArrayLike<number>[]): Float64Array {
  let size = 0;
  for (const t of turns) size += t.length;
  const all = new Float64Array(size);
  let at = 0;
  for (const t of turns) {
    all.set(t, at);
    at += t.length;
  }
  return all.sort();
}
