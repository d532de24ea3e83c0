import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untaggedExports } from '../src/experimental-tags';
import { publishedPackages } from '../src/workspace';

// DESIGN.md: every export of an `./experimental` entry carries an `@experimental` TSDoc tag.
describe('experimental entries tag every export', () => {
  it.each(publishedPackages().map((p) => [p.json.name, p] as const))('%s', (_, pkg) => {
    const dts = join(pkg.path, 'dist', 'experimental.d.ts');
    expect(existsSync(dts), `${dts} is built`).toBe(true);
    expect(untaggedExports(readFileSync(dts, 'utf8'))).toEqual([]);
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
});
