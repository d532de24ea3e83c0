/**
 * twofold's fetch client bundled as a Worker and run by workerd (through miniflare): each
 * request to the Worker makes one tour of a peer on the Node side (see `support/peers.ts`) with
 * the Workers runtime's own fetch, and answers with the tour's report.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absoluteRun, expectedReport, startPeers, TOUR_CASES } from './support/peers';
import { type RunningWorker, startWorker } from './support/workerd';

describe("twofold's fetch client under workerd", () => {
  let worker: RunningWorker | undefined;
  let peers: Awaited<ReturnType<typeof startPeers>> | undefined;
  beforeAll(async () => {
    peers = await startPeers();
    worker = await startWorker(fileURLToPath(new URL('../clients/worker.js', import.meta.url)));
  });
  afterAll(async () => {
    await worker?.dispose();
    await peers?.close();
  });

  it.each(TOUR_CASES)('$name', async (tourCase) => {
    const run = absoluteRun(tourCase.run, peers?.origin ?? '');
    const response = await fetch(worker?.url ?? '', { method: 'POST', body: JSON.stringify(run) });
    expect(await response.json()).toEqual(expectedReport(tourCase));
  });
});
