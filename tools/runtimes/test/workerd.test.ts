/**
 * A twofold `McpServer` (the built packages, bundled) run by workerd, Cloudflare's Workers
 * runtime, through miniflare on loopback: the server is built at module scope, where Workers
 * forbid random values and I/O, and twofold's Node client reaches it in both eras.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe } from 'vitest';
import { checkBothEras } from './support/both-eras';

const worker = fileURLToPath(new URL('../servers/worker.js', import.meta.url));

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [worker],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker'],
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('a twofold server under workerd', () => {
  let miniflare: Miniflare | undefined;
  let url = '';
  beforeAll(async () => {
    miniflare = new Miniflare({
      modules: true,
      script: await bundle(),
      compatibilityDate: '2025-09-01',
      // Loopback only: no fetch of Cloudflare's `request.cf` data.
      cf: false,
      host: '127.0.0.1',
      port: 0,
    });
    url = new URL('/mcp', await miniflare.ready).href;
  });
  afterAll(() => miniflare?.dispose());

  checkBothEras(() => url);
});
