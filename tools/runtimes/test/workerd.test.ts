/**
 * A twofold `McpServer` (the built packages, bundled) run by workerd, Cloudflare's Workers
 * runtime, through miniflare on loopback: the server is built at module scope, where Workers
 * forbid random values and I/O, and twofold's Node client reaches it in both eras.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import { checkBothEras } from './support/both-eras';
import { type RunningWorker, startWorker } from './support/workerd';

describe('a twofold server under workerd', () => {
  let worker: RunningWorker | undefined;
  beforeAll(async () => {
    worker = await startWorker(fileURLToPath(new URL('../servers/worker.js', import.meta.url)));
  });
  afterAll(() => worker?.dispose());

  checkBothEras(() => new URL('/mcp', worker?.url).href);
});
