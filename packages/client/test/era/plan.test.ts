/**
 * The connect plan as a table: pinned versions decide the era, a prior verdict counts only for
 * its own server (and an era that agrees), and everything else probes.
 */
import { LocalError, MODERN_VERSIONS } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { type PlanInput, resolvePlan } from '../../src/era/plan';
import type { EraVerdict } from '../../src/types';

const KEY = 'stdio:server';
const base: PlanInput = { serverKey: KEY, era: 'auto', modernVersions: MODERN_VERSIONS };
const legacyVerdict: EraVerdict = {
  era: 'legacy',
  protocolVersion: '2025-06-18',
  transport: 'http+sse',
  serverKey: KEY,
};
const modernVerdict: EraVerdict = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  transport: 'stream',
  serverKey: KEY,
};

describe('resolvePlan', () => {
  it.each([
    ['auto', { ...base }, { mode: 'auto', modernVersion: '2026-07-28' }],
    [
      "era 'modern'",
      { ...base, era: 'modern' as const },
      { mode: 'modern', modernVersion: '2026-07-28', pinned: false },
    ],
    [
      "era 'legacy'",
      { ...base, era: 'legacy' as const },
      { mode: 'legacy', pinned: false, eraPinned: true, sseOnly: false },
    ],
    [
      'a legacy version pin (wins over era)',
      { ...base, era: 'modern' as const, protocolVersion: '2024-11-05' },
      { mode: 'legacy', legacyVersion: '2024-11-05', pinned: true, eraPinned: true },
    ],
    [
      'a modern version pin',
      { ...base, era: 'legacy' as const, protocolVersion: '2026-07-28' },
      { mode: 'modern', modernVersion: '2026-07-28', pinned: true },
    ],
    [
      'a legacy verdict',
      { ...base, verdict: legacyVerdict },
      {
        mode: 'legacy',
        legacyVersion: '2025-06-18',
        pinned: false,
        eraPinned: false,
        sseOnly: true,
      },
    ],
    [
      'a modern verdict',
      { ...base, verdict: modernVerdict },
      { mode: 'modern', modernVersion: '2026-07-28', pinned: false },
    ],
    [
      'a verdict for another server',
      { ...base, verdict: { ...legacyVerdict, serverKey: 'other' } },
      { mode: 'auto' },
    ],
    [
      'a verdict the pinned era contradicts',
      { ...base, era: 'modern' as const, verdict: legacyVerdict },
      { mode: 'modern', pinned: false },
    ],
    [
      'a verdict naming a version this client lacks',
      { ...base, verdict: { ...legacyVerdict, protocolVersion: '2025-03-26' } },
      { mode: 'auto' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(resolvePlan(input)).toMatchObject(expected);
  });

  it('an unknown pinned version is NO_MUTUAL_VERSION', () => {
    const run = () => resolvePlan({ ...base, protocolVersion: '2025-03-26' });
    expect(run).toThrow(LocalError);
    expect(run).toThrow(/2025-03-26/);
  });
});
