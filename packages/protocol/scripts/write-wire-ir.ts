/**
 * Regenerates `src/compiled/wire-ir.json` from the zod wire. Run after changing a schema
 * (`pnpm --filter @twofold/protocol wire:ir`); a test fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatWireIr } from './wire-to-ir';

const target = fileURLToPath(new URL('../src/compiled/wire-ir.json', import.meta.url));
writeFileSync(target, formatWireIr());
console.log(`wrote ${target}`);
