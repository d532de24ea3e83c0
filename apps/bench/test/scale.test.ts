/**
 * The scale rows on tiny counts, against real replicas, Redis and nginx: every row is there with
 * finite positive figures, and nginx spread the requests over every replica it fronts. Skipped,
 * with the reason printed, where nginx or redis-server is missing.
 */
import { describe, expect, it } from 'vitest';
import { behindNginx, DIRECT, runScaleBench } from '../src/scale';
import { scaleUnavailable } from '../src/scale-topology';

const unavailable = scaleUnavailable();

describe.skipIf(unavailable !== undefined)('scale rows', () => {
  it('measures 1, 2 and 3 replicas behind nginx beside one reached directly', async () => {
    const config = { repetitions: 1, warmup: 0, requests: 50, concurrency: 16 };
    const { rows, markdown, skipped } = await runScaleBench(config);
    expect(skipped).toBeUndefined();
    expect(rows.map((row) => row.configuration)).toEqual([
      DIRECT,
      behindNginx(1),
      behindNginx(2),
      behindNginx(3),
    ]);
    for (const row of rows) {
      expect(row.failure).toBeUndefined();
      for (const stat of [row.perSecond, row.p99, row.perSecondRatio, row.p99Ratio]) {
        expect(stat?.n).toBe(1);
        expect(Number.isFinite(stat?.median)).toBe(true);
        expect(stat?.median).toBeGreaterThan(0);
      }
    }
    expect(rows.map((row) => row.answering)).toEqual([1, 1, 2, 3]);
    expect(markdown).toContain(`| **${DIRECT}** |`);
  }, 180_000);
});
