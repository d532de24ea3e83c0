import { describe, expect, it } from 'vitest';
import {
  eraOf,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  SUPPORTED_VERSIONS,
  selectLegacyVersion,
  selectMutualVersion,
} from '../src/versions';

describe('version lists', () => {
  it('pins the offered versions, newest first, without 2025-03-26', () => {
    expect(MODERN_VERSIONS).toEqual(['2026-07-28']);
    expect(LEGACY_VERSIONS).toEqual(['2025-11-25', '2025-06-18', '2024-11-05']);
    expect(SUPPORTED_VERSIONS).not.toContain('2025-03-26');
  });

  it.each([
    ['2026-07-28', 'modern'],
    ['2025-11-25', 'legacy'],
    ['2025-06-18', 'legacy'],
    ['2024-11-05', 'legacy'],
    ['2025-03-26', undefined],
    ['2099-01-01', undefined],
    ['', undefined],
  ])('eraOf(%j) is %j', (version, era) => {
    expect(eraOf(version)).toBe(era);
  });
});

describe('legacy initialize version selection', () => {
  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2024-11-05', '2024-11-05'],
    // Batching revision: answered with the newest legacy version.
    ['2025-03-26', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
    ['1999-01-01', '2025-11-25'],
    [undefined, '2025-11-25'],
    [42, '2025-11-25'],
  ])('a client asking for %j gets %j', (requested, selected) => {
    expect(selectLegacyVersion(requested)).toBe(selected);
  });

  it('respects a narrower offer', () => {
    expect(selectLegacyVersion('2025-11-25', ['2025-06-18'])).toBe('2025-06-18');
    expect(() => selectLegacyVersion('2025-11-25', [])).toThrow(RangeError);
  });
});

describe('mutual version', () => {
  it.each([
    [['2026-07-28'], '2026-07-28'],
    [['2030-01-01', '2026-07-28'], '2026-07-28'],
    [['2030-01-01'], undefined],
    [[], undefined],
  ])('server %j → %j', (theirs, mutual) => {
    expect(selectMutualVersion(theirs, MODERN_VERSIONS)).toBe(mutual);
  });
});
