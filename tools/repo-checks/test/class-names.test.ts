// Every class a package exports keeps its own name once bundled, as ESM and as CJS, so errors
// print as users know them (`ProtocolError: …`, not a bundler's `_ProtocolError: …`). turbo
// builds the packages before this test (devDependencies).
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { ProtocolError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { publishedPackages } from '../src/workspace.ts';

const require = createRequire(import.meta.url);

function exportedClasses(entry: Record<string, unknown>): [string, { name: string }][] {
  return Object.entries(entry).filter(
    (pair): pair is [string, { name: string }] =>
      typeof pair[1] === 'function' && /^class\b/.test(Function.prototype.toString.call(pair[1])),
  );
}

describe('exported class names', () => {
  for (const { json } of publishedPackages()) {
    it(`${json.name}/experimental keeps every class name, as ESM and CJS`, async () => {
      const esm = (await import(`${json.name}/experimental`)) as Record<string, unknown>;
      const cjs = require(`${json.name}/experimental`) as Record<string, unknown>;
      for (const entry of [esm, cjs]) {
        const renamed = exportedClasses(entry).filter(([name, value]) => value.name !== name);
        expect(renamed.map(([name, value]) => `${name} is named ${value.name}`)).toEqual([]);
      }
    });
  }

  it('prints a ProtocolError under its own name', () => {
    expect(inspect(new ProtocolError(-32600, 'Invalid request'))).toMatch(
      /^ProtocolError: Invalid request/,
    );
  });
});
