/**
 * Storing an era verdict: the discover result kept only for its ttlMs, the era kept after, and
 * a verdict reached by silence never kept (nor trusted when a host passes one back).
 */
import { describe, expect, it } from 'vitest';
import { resolvePlan } from '../../src/era/plan';
import { restoreVerdict, type StoredEraVerdict, storeVerdict } from '../../src/era/stored-verdict';
import type { EraVerdict } from '../../src/types';

const era: EraVerdict = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  transport: 'stream',
  serverKey: 'k',
  reachedBy: 'answer',
};
const discover = {
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  ttlMs: 1000,
  cacheScope: 'public',
};
const now = Date.parse('2026-12-01T00:00:00Z');

function stored(verdict: EraVerdict): StoredEraVerdict {
  const kept = storeVerdict(verdict, now);
  if (kept === undefined) throw new Error('not stored');
  return kept;
}

describe('stored era verdicts', () => {
  it('keep the discover result until its ttlMs runs out, the era verdict after that', () => {
    const kept = stored({ ...era, discover: discover as never });
    expect(kept.expiresAt).toBe('2026-12-01T00:00:01.000Z');
    expect(JSON.parse(JSON.stringify(kept))).toEqual(kept);
    expect(restoreVerdict(kept, now + 999).discover).toEqual(discover);
    expect(restoreVerdict(kept, now + 1000)).toEqual(era);
  });

  it.each([0, undefined])('drop a discover result whose ttlMs is %s at once', (ttlMs) => {
    const kept = stored({ ...era, discover: { ...discover, ttlMs } as never });
    expect(kept).toEqual({ verdict: era });
    expect(restoreVerdict(kept, now)).toEqual(era);
  });

  it('a verdict reached by silence is not stored', () => {
    const silent: EraVerdict = { ...era, era: 'legacy', protocolVersion: '2025-11-25' };
    expect(storeVerdict({ ...silent, reachedBy: 'silence' }, now)).toBeUndefined();
    // Verdicts stored before `reachedBy` existed are still kept.
    const { reachedBy: _, ...old } = silent;
    expect(storeVerdict(old, now)).toEqual({ verdict: old });
  });

  it('a verdict reached by silence and passed back anyway is ignored: the client probes', () => {
    const legacy: EraVerdict = { ...era, era: 'legacy', protocolVersion: '2025-11-25' };
    const plan = (verdict: EraVerdict) =>
      resolvePlan({
        serverKey: 'k',
        era: 'auto',
        verdict,
        modernVersions: ['2026-07-28'],
      }).mode;
    expect(plan({ ...legacy, reachedBy: 'silence' })).toBe('auto');
    expect(plan(legacy)).toBe('legacy');
  });
});
