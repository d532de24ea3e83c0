/** Storing an era verdict: the discover result kept only for its ttlMs, the era kept after. */
import { describe, expect, it } from 'vitest';
import { restoreVerdict, storeVerdict } from '../../src/era/stored-verdict';
import type { EraVerdict } from '../../src/types';

const era: EraVerdict = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  transport: 'stream',
  serverKey: 'k',
};
const discover = {
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  ttlMs: 1000,
  cacheScope: 'public',
};
const now = Date.parse('2026-12-01T00:00:00Z');

describe('stored era verdicts', () => {
  it('keep the discover result until its ttlMs runs out, the era verdict after that', () => {
    const stored = storeVerdict({ ...era, discover: discover as never }, now);
    expect(stored.expiresAt).toBe('2026-12-01T00:00:01.000Z');
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    expect(restoreVerdict(stored, now + 999).discover).toEqual(discover);
    expect(restoreVerdict(stored, now + 1000)).toEqual(era);
  });

  it.each([0, undefined])('drop a discover result whose ttlMs is %s at once', (ttlMs) => {
    const stored = storeVerdict({ ...era, discover: { ...discover, ttlMs } as never }, now);
    expect(stored).toEqual({ verdict: era });
    expect(restoreVerdict(stored, now)).toEqual(era);
  });
});
