/**
 * Alternation, the rule every section follows: the contenders of one case take turns, round
 * after round, and the order reverses every other round, so drift of the machine (frequency,
 * other load, a neighbour's garbage) falls on all of them alike.
 */

/** Options of {@link alternate}. */
export interface AlternateOptions {
  /** Recorded rounds. */
  rounds: number;
  /** Unrecorded rounds first (JIT, caches, connection pools). */
  warmup?: number;
}

/**
 * Runs `turn(i, round)` for every contender index `i` in `[0, count)`, `rounds` times in
 * alternating order after `warmup` unrecorded rounds; returns the samples per contender.
 */
export async function alternate<T>(
  count: number,
  options: AlternateOptions,
  turn: (index: number, round: number) => Promise<T>,
): Promise<T[][]> {
  const order = (round: number) =>
    Array.from({ length: count }, (_, i) => (round % 2 === 0 ? i : count - 1 - i));
  for (let round = 0; round < (options.warmup ?? 0); round++) {
    for (const i of order(round)) await turn(i, -1);
  }
  const samples = Array.from({ length: count }, () => [] as T[]);
  for (let round = 0; round < options.rounds; round++) {
    for (const i of order(round)) samples[i]?.push(await turn(i, round));
  }
  return samples;
}
