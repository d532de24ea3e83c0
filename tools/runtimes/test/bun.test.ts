/**
 * A twofold `McpServer` (the built packages) served by `Bun.serve({ fetch: handler })` on
 * loopback, reached by twofold's Node client in both eras.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { bunBinary } from './support/binaries';
import { checkBothEras } from './support/both-eras';
import { type ServedProcess, startServed } from './support/served-process';

const bun = bunBinary();
if ('missing' in bun) console.warn(`Skipping the Bun tests: ${bun.missing}`);

describe.skipIf('missing' in bun)('a twofold server under Bun.serve', () => {
  let served: ServedProcess | undefined;
  beforeAll(async () => {
    if ('path' in bun) served = await startServed(bun.path, ['bun.js']);
  });
  afterAll(() => served?.stop());

  checkBothEras(() => served?.url ?? '');
});
