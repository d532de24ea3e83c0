// Loads every package's built root entry the way users will, as ESM and as CJS, and checks the
// version injected at build time. turbo builds the packages before this test (devDependencies).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { publishedPackages } from '../src/workspace.ts';

interface RootEntry {
  version: string;
  experimentalEntry: string;
}

const require = createRequire(import.meta.url);

describe('built root entries', () => {
  for (const { json } of publishedPackages()) {
    it(`${json.name} loads as ESM and CJS with its version`, async () => {
      const expected = { version: json.version, experimentalEntry: `${json.name}/experimental` };
      const esm = (await import(json.name)) as RootEntry;
      const cjs = require(json.name) as RootEntry;
      expect({ version: esm.version, experimentalEntry: esm.experimentalEntry }).toEqual(expected);
      expect({ version: cjs.version, experimentalEntry: cjs.experimentalEntry }).toEqual(expected);
      expect(require.resolve(`${json.name}/experimental`)).toMatch(/experimental\.cjs$/);
    });
  }
});
