/**
 * A call must leave nothing that outlives it: what a client and a server allocate for one
 * request is garbage once the answer is in. V8 copies what is still reachable at a minor
 * collection and moves it to the old generation at the next, so a call whose objects stay
 * reachable a little longer (for example from a getter in a per-request object literal, which
 * V8 keeps in the old generation) makes every collection expensive and the heap grow between
 * full ones. This counts what forced minor collections promote between sequential calls.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/gc/sequential-calls.mjs', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 20;

/** Bytes promoted to the old generation per call, over `ROUNDS` rounds after the warm-up. */
function promotedPerCall(era: 'modern' | 'legacy'): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--trace-gc-nvp', FIXTURE, era, String(ROUNDS)],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`the fixture exited with ${code}: ${err}`));
      const [, counted = ''] = out.split(/^measuring \d+$/m);
      const calls = Number(/^measuring (\d+)$/m.exec(out)?.[1]);
      let promoted = 0;
      for (const match of counted.matchAll(/(?:^|\s)promoted=(\d+)/g)) promoted += Number(match[1]);
      if (!counted.includes('done') || !(calls > 0)) {
        return reject(new Error(`unexpected fixture output: ${out.slice(0, 500)}`));
      }
      resolve(promoted / calls);
    });
  });
}

describe('what a call leaves behind for the old generation', () => {
  // Measured: about 30 bytes per call (compiled-code bookkeeping); 1,100 to 1,400 while the
  // handler context had a literal getter and results were extended after a spread.
  it.each(['modern', 'legacy'] as const)('%s: well under 300 bytes per call', async (era) => {
    expect(await promotedPerCall(era)).toBeLessThan(300);
  });
});
