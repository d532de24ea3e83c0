/**
 * twofold's runtime-neutral HTTP client (`httpServer` from `@twofold/client/experimental`, on
 * the runtime's own fetch) run by Node, Bun and Deno as separate processes, against the twofold
 * demo server and the official SDK servers on one loopback origin: both eras, the HTTP+SSE
 * fallback, a change heard on a listen and on a legacy GET stream, and a `close()` that resolves
 * (the process prints its report only after it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Binary, bunBinary, denoBinary } from './support/binaries';
import { absoluteRun, expectedReport, startPeers, TOUR_CASES } from './support/peers';
import { runClient } from './support/run-client';

const RUNTIMES: Array<{ name: string; binary: Binary; args: string[] }> = [
  { name: 'Node', binary: { path: process.execPath }, args: [] },
  { name: 'Bun', binary: bunBinary(), args: [] },
  { name: 'Deno', binary: denoBinary(), args: ['run', '--allow-net=127.0.0.1'] },
];

let peers: Awaited<ReturnType<typeof startPeers>> | undefined;
beforeAll(async () => {
  peers = await startPeers();
});
afterAll(() => peers?.close());

for (const { name, binary, args } of RUNTIMES) {
  if ('missing' in binary)
    console.warn(`Skipping the fetch client under ${name}: ${binary.missing}`);
  describe.skipIf('missing' in binary)(`twofold's fetch client under ${name}`, () => {
    it.each(TOUR_CASES)('$name', async (tourCase) => {
      const command = 'path' in binary ? binary.path : '';
      const outcome = await runClient(
        command,
        args,
        absoluteRun(tourCase.run, peers?.origin ?? ''),
      );
      expect(outcome).toEqual(expectedReport(tourCase));
    });
  });
}
