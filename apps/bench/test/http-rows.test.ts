/**
 * The HTTP rows on tiny counts, against real server processes: the official server with its
 * schemas built once answers beside the others, with its ratio to twofold, and `--profile`
 * records a row's server, client driver and in-process load generator. Checks answers, rows
 * and files, never timings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BenchConfig, benchConfig } from '../src/config';
import { httpCase, runHttpBench } from '../src/http-bench';
import { OFFICIAL_V2_MODERN_PREBUILT, TWOFOLD_MODERN } from '../src/impls';
import { configureProfiling } from '../src/profiling';
import { withRatios } from '../src/report';
import { profiledRoles } from './profiled-roles';

/** One recorded turn of 50 ms per case, 50 tools, one call in flight. */
const tinyHttp: BenchConfig = {
  ...benchConfig(true),
  http: {
    turnMs: 50,
    warmupMs: 20,
    serverWarmupMs: 50,
    rounds: 1,
    toolCounts: [50],
    concurrency: () => [1],
  },
};

describe('HTTP rows', () => {
  it('answer on the official server with schemas built once, with its ratio to twofold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
    configureProfiling({ rows: [TWOFOLD_MODERN], dir });
    const { raw, client } = await runHttpBench(tinyHttp).finally(() =>
      configureProfiling(undefined),
    );
    for (const section of [raw, client].map(withRatios)) {
      const modern = section.rows.filter((r) => r.case === httpCase(50, 'modern stateless', 1));
      expect(modern.map((r) => r.implementation)).toContain(OFFICIAL_V2_MODERN_PREBUILT);
      for (const row of modern) {
        expect(row.failure, `${section.id} ${row.implementation}`).toBeUndefined();
        expect(row.value?.median).toBeGreaterThan(0);
        expect(row.ratios?.value).toBeGreaterThan(0);
      }
    }
    expect(profiledRoles(dir, TWOFOLD_MODERN)).toEqual(['http-client', 'http-load', 'http-server']);
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
