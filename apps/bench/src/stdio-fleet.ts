/**
 * The stdio side of the benchmark: one client driver process per pair of `STDIO_PAIRS`, each
 * talking to its own server. The sections borrow the fleet in turn; it is started once.
 */
import { type DriverProcess, startDrivers } from './driver-process';
import { type Pair, STDIO_PAIRS, stdioTarget } from './impls';
import { profileNodeArgs } from './profiling';

/** Tools of the stdio servers: `echo` and `bench_stats`. */
export const STDIO_TOOLS = 2;

/** The running drivers, aligned with `pairs`. */
export interface StdioFleet {
  pairs: readonly Pair[];
  drivers: readonly DriverProcess[];
  /** (Re)connects pair `i` to a fresh server of its own. */
  open(i: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a driver for every stdio pair (no connection yet); `launcher` runs each through a
 * command (`taskset -c 1`), which the servers the drivers spawn inherit.
 */
export async function startStdioFleet(
  pairs: readonly Pair[] = STDIO_PAIRS,
  launcher: readonly string[] = [],
): Promise<StdioFleet> {
  const drivers = await startDrivers(
    pairs.map((p) => ({
      name: p.name,
      script: p.impl.client,
      nodeArgs: profileNodeArgs(p.name, 'stdio-client'),
      launcher,
    })),
  );
  return {
    pairs,
    drivers,
    async open(i) {
      const pair = pairs[i] as Pair;
      await (drivers[i] as DriverProcess).send('open', { target: stdioTarget(pair, STDIO_TOOLS) });
    },
    async close() {
      await Promise.all(drivers.map((d) => d.close()));
    },
  };
}

/** Memory and CPU a server or client driver reports (bytes, µs). */
export interface ProcessStats {
  rss: number;
  heapUsed: number;
  maxRss: number;
  cpuMicros?: number;
  /** Open file descriptors (Linux). */
  fds?: number;
}

export const MiB = 1024 * 1024;
