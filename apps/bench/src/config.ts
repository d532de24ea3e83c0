/**
 * How much each section measures, in quick and in full mode: the whole time budget in one
 * place (quick must stay under 3 minutes on a 2-core machine, full under about 15).
 */

/** Every knob of a run. */
export interface BenchConfig {
  quick: boolean;
  coldStart: { rounds: number; warmup: number };
  /**
   * Throughput turns: wall time of one turn, recorded rounds, and the unrecorded load each
   * fresh connection gets once first (JIT warm-up).
   */
  throughput: { turnMs: number; rounds: number; inFlight: readonly number[]; warmupMs: number };
  echo: {
    sizes: readonly number[];
    /** Recorded rounds for a size, by the size in bytes. */
    rounds: (bytes: number) => number;
    /** How long one echo may take before it is reported as unanswered. */
    timeoutMs: number;
  };
  /** Calls between the two leak-check readings. */
  leakCalls: number;
  http: {
    turnMs: number;
    /** The unrecorded first turn of each case. */
    warmupMs: number;
    /** Raw load each fresh server gets once before any case (JIT warm-up, unrecorded). */
    serverWarmupMs: number;
    rounds: number;
    toolCounts: readonly number[];
    /** The concurrencies measured on a server with that many tools. */
    concurrency: (tools: number) => readonly number[];
    /** What quick mode leaves out, said in the output. */
    note?: string;
  };
  importTime: { rounds: number };
  cli: { rounds: number };
  /** Frames sent per transport by the fuzz (`--only fuzz`; `--frames` overrides). */
  fuzz: { frames: number };
  /**
   * The soak (`--only soak`): how long each variant runs and how many clients (HTTP) or calls
   * in flight (stdio) it keeps busy (`--soak-seconds`, `--soak-clients` override).
   */
  soak: { durationMs: number; clients: number };
  /** The scale-out rows (`--only scale`; `--scale-concurrency` overrides the concurrency). */
  scale: ScaleConfig;
}

/** How much the scale-out rows measure: per configuration, per repetition. */
export interface ScaleConfig {
  /** Recorded repetitions (configurations alternate within each). */
  repetitions: number;
  /** Unrecorded repetitions first (JIT of the replicas and nginx's upstream connections). */
  warmup: number;
  /** `tools/call` requests per configuration and repetition. */
  requests: number;
  /** Requests kept in flight. */
  concurrency: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const ECHO_SIZES = [KiB, 100 * KiB, MiB, 10 * MiB, 50 * MiB];

/** The settings of `pnpm bench` (full) or `pnpm bench --quick`. */
export function benchConfig(quick: boolean): BenchConfig {
  return quick
    ? {
        quick,
        coldStart: { rounds: 4, warmup: 1 },
        throughput: { turnMs: 150, rounds: 3, inFlight: [1, 8, 64], warmupMs: 300 },
        echo: {
          sizes: ECHO_SIZES,
          rounds: (bytes) => (bytes >= 50 * MiB ? 1 : bytes >= 10 * MiB ? 2 : 3),
          timeoutMs: 5000,
        },
        leakCalls: 20_000,
        http: {
          turnMs: 150,
          warmupMs: 75,
          serverWarmupMs: 300,
          rounds: 2,
          toolCounts: [2, 50],
          concurrency: (tools) => (tools === 2 ? [16] : [1, 16, 64]),
          note: 'Quick mode: the 2-tool server is measured at concurrency 16 only.',
        },
        importTime: { rounds: 5 },
        cli: { rounds: 3 },
        fuzz: { frames: 500 },
        soak: { durationMs: 15_000, clients: 64 },
        scale: { repetitions: 3, warmup: 1, requests: 1500, concurrency: 16 },
      }
    : {
        quick,
        coldStart: { rounds: 15, warmup: 2 },
        throughput: { turnMs: 700, rounds: 7, inFlight: [1, 8, 64], warmupMs: 1000 },
        echo: {
          sizes: ECHO_SIZES,
          rounds: (bytes) => (bytes >= 50 * MiB ? 3 : bytes >= 10 * MiB ? 5 : 9),
          timeoutMs: 30_000,
        },
        leakCalls: 100_000,
        http: {
          turnMs: 600,
          warmupMs: 300,
          serverWarmupMs: 1000,
          rounds: 5,
          toolCounts: [2, 50],
          concurrency: () => [1, 16, 64],
        },
        importTime: { rounds: 15 },
        cli: { rounds: 7 },
        fuzz: { frames: 3000 },
        soak: { durationMs: 120_000, clients: 64 },
        scale: { repetitions: 7, warmup: 1, requests: 4000, concurrency: 16 },
      };
}
