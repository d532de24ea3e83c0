/**
 * A small seeded generator (mulberry32): the same seed yields the same frames, so a run that
 * found something can be replayed with `--seed`.
 */
import { randomInt } from 'node:crypto';

/** A seed for a run that was not given one. */
export function freshSeed(): number {
  return randomInt(1, 2 ** 31);
}

/** Deterministic random choices from one 32-bit seed. */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  /** `length` random bytes. */
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.int(0, 255));
  }
}
