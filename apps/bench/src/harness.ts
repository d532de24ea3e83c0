/**
 * A small alternating benchmark harness: implementations of one case run in turns, round after
 * round, so drift of the machine (frequency, other load) hits all of them alike. Reports the
 * median ops/s over rounds with its min–max.
 */
import { performance } from 'node:perf_hooks';

export interface Contender {
  name: string;
  /** One operation. Must return something derived from its work, so it cannot be elided. */
  run: () => unknown;
}

export interface CaseResult {
  name: string;
  median: number;
  min: number;
  max: number;
}

export interface HarnessOptions {
  rounds: number;
  /** Wall time of one turn of one contender, in ms. */
  turnMs: number;
}

let sink: unknown;

function turn(contender: Contender, turnMs: number): number {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < turnMs) {
    for (let i = 0; i < 16; i++) sink = contender.run();
    ops += 16;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Runs every contender `rounds` times in alternation, after one warm-up turn each. */
export function compare(contenders: readonly Contender[], options: HarnessOptions): CaseResult[] {
  for (const c of contenders) turn(c, options.turnMs);
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < options.rounds; round++) {
    // Alternate the order too, so neither side always runs right after the other's garbage.
    const order =
      round % 2 === 0
        ? contenders.map((_, i) => i)
        : contenders.map((_, i) => contenders.length - 1 - i);
    for (const i of order) samples[i]?.push(turn(contenders[i] as Contender, options.turnMs));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return contenders.map((c, i) => {
    const sorted = [...(samples[i] ?? [])].sort((a, b) => a - b);
    return {
      name: c.name,
      median: sorted[Math.floor(sorted.length / 2)] ?? 0,
      min: sorted[0] ?? 0,
      max: sorted[sorted.length - 1] ?? 0,
    };
  });
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));

/** A Markdown table: one row per case and contender, with the ratio to the baseline contender. */
export function table(rows: { case: string; results: CaseResult[]; baseline: string }[]): string {
  const lines = [
    '| case | implementation | ops/s (median) | min–max | ratio to baseline |',
    '| --- | --- | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const base = row.results.find((r) => r.name === row.baseline)?.median ?? Number.NaN;
    for (const r of row.results) {
      lines.push(
        `| ${row.case} | ${r.name} | ${fmt(r.median)} | ${fmt(r.min)}–${fmt(r.max)} | ${(r.median / base).toFixed(2)}× |`,
      );
    }
  }
  return lines.join('\n');
}
