/**
 * `--profile` on a tiny stdio run: the profiled row's client driver and its server child each
 * write a non-empty CPU profile when they exit, and the row carries both processes' CPU per
 * call. Checks files and that the figures exist, never their size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchConfig } from '../src/config';
import { STDIO_PAIRS, TWOFOLD_MODERN } from '../src/impls';
import { configureProfiling } from '../src/profiling';
import { startStdioFleet } from '../src/stdio-fleet';
import { runStdioThroughput } from '../src/stdio-throughput';
import { profiledRoles } from './profiled-roles';

const tiny = {
  ...benchConfig(true),
  throughput: { turnMs: 50, rounds: 1, inFlight: [1], warmupMs: 50 },
};

describe('--profile', () => {
  it('writes CPU profiles of a stdio row: its client driver and its server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
    configureProfiling({ rows: [TWOFOLD_MODERN], dir });
    try {
      const fleet = await startStdioFleet(STDIO_PAIRS.filter((p) => p.name === TWOFOLD_MODERN));
      try {
        const { throughput } = await runStdioThroughput(fleet, tiny);
        expect(throughput.rows.map((r) => r.failure)).toEqual([undefined]);
        for (const key of ['clientCpu', 'serverCpu']) {
          expect(throughput.rows[0]?.extra?.[key]).toBeGreaterThan(0);
        }
      } finally {
        await fleet.close();
      }
    } finally {
      configureProfiling(undefined);
    }
    expect(profiledRoles(dir, TWOFOLD_MODERN)).toEqual(['stdio-client', 'stdio-server']);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
