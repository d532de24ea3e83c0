/** The manager's pure decisions as tables: restart delays, the crash-loop window, verdict reuse. */
import { describe, expect, it } from 'vitest';
import { parseServerEntry } from '../../src/config/parse';
import type { StoredVerdict } from '../../src/config/types';
import { FailureWindow, restartDelay } from '../../src/manager/backoff';
import {
  entryFingerprint,
  managedServerKey,
  reusableVerdict,
  storableVerdict,
} from '../../src/manager/verdicts';
import { envRef } from './support';

const policy = { initialDelayMs: 500, maxDelayMs: 30_000, factor: 2, jitter: 0.2 };

describe('restartDelay', () => {
  it.each([
    // consecutive, random, delay: the middle of the spread is random 0.5
    [1, 0.5, 500],
    [2, 0.5, 1000],
    [3, 0.5, 2000],
    [7, 0.5, 30_000],
    [50, 0.5, 30_000],
    [1, 0, 400],
    [1, 0.999_999, 600],
    // Capped after the spread too: never above maxDelayMs.
    [10, 0.999_999, 30_000],
    [10, 0, 24_000],
  ])('restart %i with random %d waits %i ms', (consecutive, random, delay) => {
    expect(restartDelay(policy, consecutive, () => random)).toBe(delay);
  });

  it('no jitter, factor 1: always the initial delay', () => {
    const flat = { ...policy, factor: 1, jitter: 0 };
    expect([1, 2, 9].map((n) => restartDelay(flat, n, Math.random))).toEqual([500, 500, 500]);
  });
});

describe('FailureWindow', () => {
  it('counts failures within the window and forgets older ones', () => {
    const window = new FailureWindow({ maxFailures: 3, windowMs: 1000 });
    expect(window.record(0)).toBe(1);
    expect(window.record(400)).toBe(2);
    expect(window.exhausted(400)).toBe(false);
    expect(window.record(900)).toBe(3);
    expect(window.exhausted(900)).toBe(true);
    // At 1000 the first failure is exactly a window old: out.
    expect(window.count(1000)).toBe(2);
    expect(window.count(1901)).toBe(0);
  });

  it('reset clears the count (sustained uptime)', () => {
    const window = new FailureWindow({ maxFailures: 2, windowMs: 10_000 });
    window.record(1);
    window.record(2);
    window.reset();
    expect(window.count(3)).toBe(0);
  });
});

describe('verdicts', () => {
  const stdio = parseServerEntry('s', { command: 'node', args: ['server.js'] });
  const key = managedServerKey('s', stdio);
  const verdict = {
    era: 'modern' as const,
    protocolVersion: '2026-07-28',
    transport: 'stream' as const,
    serverKey: key,
  };
  const discover = {
    supportedVersions: ['2026-07-28'],
    capabilities: {},
    ttlMs: 60_000,
    cacheScope: 'public',
  };

  it('the fingerprint follows what reaches the server, not restart or filter settings', () => {
    const same = parseServerEntry('s', {
      command: 'node',
      args: ['server.js'],
      restart: { mode: 'never' },
    });
    const other = parseServerEntry('s', { command: 'node', args: ['other.js'] });
    const pinned = parseServerEntry('s', { command: 'node', args: ['server.js'], era: 'legacy' });
    expect(entryFingerprint(same)).toBe(entryFingerprint(stdio));
    expect(entryFingerprint(other)).not.toBe(entryFingerprint(stdio));
    expect(entryFingerprint(pinned)).not.toBe(entryFingerprint(stdio));
  });

  it('the server key never holds a resolved secret: references stay as written', () => {
    const entry = parseServerEntry('s', { url: `https://h.example/mcp?key=${envRef('K')}` });
    expect(managedServerKey('s', entry)).toContain(envRef('K'));
  });

  it('keeps the discover result only when its ttlMs allows, until it goes stale', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const kept = storableVerdict({ ...verdict, discover: discover as never }, stdio, now);
    if (kept === undefined) throw new Error('a verdict reached by an answer must be stored');
    expect(kept.expiresAt).toBe('2026-12-01T00:01:00.000Z');
    expect(kept.verdict.discover).toEqual(discover);
    const zero = storableVerdict(
      { ...verdict, discover: { ...discover, ttlMs: 0 } as never },
      stdio,
      now,
    );
    expect(zero).toEqual({ verdict, entryFingerprint: entryFingerprint(stdio) });

    expect(reusableVerdict(kept, stdio, key, now + 59_999).verdict).toEqual(kept.verdict);
    // Stale: the era verdict stays, the discover result goes.
    expect(reusableVerdict(kept, stdio, key, now + 60_000)).toEqual({ verdict });
  });

  it.each<[string, Partial<StoredVerdict>, string]>([
    [
      'another entry',
      { entryFingerprint: '["stdio","other"]' },
      'the entry changed since the verdict was stored',
    ],
    [
      'another key',
      { verdict: { ...verdict, serverKey: 'elsewhere' } },
      'it belongs to another server key',
    ],
  ])('drops a verdict of %s', (_what, change, reason) => {
    const stored = { verdict, entryFingerprint: entryFingerprint(stdio), ...change };
    expect(reusableVerdict(stored, stdio, key, 0)).toEqual({ dropped: reason });
  });
});
