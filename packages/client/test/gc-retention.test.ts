/**
 * A call must leave nothing that outlives it: what a client and a server allocate for one
 * request is garbage once the answer is in. V8 copies what is still reachable at a minor
 * collection and moves it to the old generation at the next, so a call whose objects stay
 * reachable a little longer makes every collection expensive and the heap grow between full
 * ones. Found this way: a getter in a per-request object literal, results extended after a
 * spread, and `Map`s of in-flight requests (see `RequestIdMap`). This counts what forced minor
 * collections promote, taken when no call is in flight.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childExit } from '../../../config/test-support/processes.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/gc/calls.mjs', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 20;

/** Bytes promoted to the old generation per call, over `ROUNDS` rounds after the warm-up. */
async function promotedPerCall(era: 'modern' | 'legacy', inFlight: number): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--trace-gc-nvp', FIXTURE, era, String(ROUNDS), String(inFlight)],
    { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { status, stdout, stderr } = await childExit(child);
  expect(status, stderr).toBe(0);
  const [, counted = ''] = stdout.split(/^measuring \d+$/m);
  const calls = Number(/^measuring (\d+)$/m.exec(stdout)?.[1]);
  expect(counted, 'the fixture ran to its end').toContain('done');
  let promoted = 0;
  for (const match of counted.matchAll(/(?:^|\s)promoted=(\d+)/g)) promoted += Number(match[1]);
  return promoted / calls;
}

describe('what a call leaves behind for the old generation', () => {
  // Measured: about 30 bytes per call (compiled-code bookkeeping) in every case; before the
  // fixes 770 to 1,120 bytes one at a time and 1,600 to 2,140 with 64 in flight.
  it.each([
    ['modern', 1],
    ['legacy', 1],
    ['modern', 64],
    ['legacy', 64],
  ] as const)('%s, %i in flight: well under 300 bytes per call', async (era, inFlight) => {
    expect(await promotedPerCall(era, inFlight)).toBeLessThan(300);
  });
});
