/**
 * The fuzz and the soak on tiny bounds, against real server processes: they run to the end and
 * find nothing. The oversized frames are left out here (64 MiB each over stdio); the bench run
 * sends them.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../src/fuzz/fuzz';
import { runSoak } from '../src/soak/soak';

describe('robustness harness', () => {
  it('fuzzes server and client and finds no crash, missing or duplicate answer', async () => {
    const { markdown, failures } = await runFuzz({ frames: 50, seed: 1, oversized: false });
    expect(failures).toEqual([]);
    expect(markdown).toContain('Seed **1**, 50 frames per transport');
    expect(markdown).toContain('stdio survived, HTTP survived');
  }, 180_000);

  it('soaks one server with concurrent clients and loses no answer', async () => {
    const { markdown, failures } = await runSoak({ durationMs: 2000, clients: 4 });
    expect(failures).toEqual([]);
    expect(markdown).toContain('| HTTP: one server, a client per worker | 4 | 4 |');
  }, 120_000);
});
