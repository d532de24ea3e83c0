import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untaggedExports } from '../src/experimental-tags';
import { publishedPackages } from '../src/workspace';

// DESIGN.md: every export of an `./experimental` entry carries an `@experimental` TSDoc tag.
// Named Node-only subpaths (e.g. `@twofold/transports/node`) are experimental as a whole too;
// only the root entry is stable.
const entries = publishedPackages().flatMap((pkg) =>
  Object.keys(pkg.json.exports ?? {})
    .filter((key) => key !== '.' && key !== './package.json')
    .map((key) => [`${pkg.json.name}${key.slice(1)}`, pkg.path, key.slice(2)] as const),
);

describe('experimental entries tag every export', () => {
  it.each(entries)('%s', (_, path, entry) => {
    const dts = join(path, 'dist', `${entry}.d.ts`);
    expect(existsSync(dts), `${dts} is built`).toBe(true);
    const readChunk = (specifier: string) => {
      const file = join(path, 'dist', specifier.replace(/\.js$/, '.d.ts'));
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    };
    expect(untaggedExports(readFileSync(dts, 'utf8'), readChunk)).toEqual([]);
  });

  it('the checker notices an untagged export', () => {
    const dts = [
      '/**\n * Tagged.\n *\n * @experimental\n */\ndeclare function good(): void;',
      '/** Not tagged. */\ndeclare const bad: number;',
      'interface Bare { a: 1 }',
      'export { type Bare, bad as renamed, good };',
    ].join('\n');
    expect(untaggedExports(dts)).toEqual(['Bare', 'renamed']);
  });

  it('follows declarations moved to a shared chunk', () => {
    const chunk = [
      '/**\n * Shared.\n *\n * @experimental\n */\ninterface Shared {}',
      '/** Untagged. */\ninterface Plain {}',
      'export type { Shared as S, Plain as P };',
    ].join('\n');
    const dts = "import { S as Shared, P as Plain } from './chunk.js';\nexport { Shared, Plain };";
    expect(untaggedExports(dts, (s) => (s === './chunk.js' ? chunk : undefined))).toEqual([
      'Plain',
    ]);
  });
});
