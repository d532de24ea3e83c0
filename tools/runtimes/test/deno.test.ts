/**
 * A twofold `McpServer` (the built packages) served by `Deno.serve` on loopback, with no
 * permission but loopback networking, reached by twofold's Node client in both eras.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { denoBinary } from './support/binaries';
import { checkBothEras } from './support/both-eras';
import { type ServedProcess, startServed } from './support/served-process';

const deno = denoBinary();
if ('missing' in deno) console.warn(`Skipping the Deno tests: ${deno.missing}`);

describe.skipIf('missing' in deno)('a twofold server under Deno.serve', () => {
  let served: ServedProcess | undefined;
  beforeAll(async () => {
    if ('path' in deno) {
      served = await startServed(deno.path, ['run', '--allow-net=127.0.0.1', 'deno.js']);
    }
  });
  afterAll(() => served?.stop());

  checkBothEras(() => served?.url ?? '');
});
