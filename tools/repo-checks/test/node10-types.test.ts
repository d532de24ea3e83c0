// A TypeScript project on `moduleResolution: node10` (which ignores `exports`) imports every
// subpath of every package and finds its types through `types` and `typesVersions`. It runs
// the repository's tsc against the built dist of the workspace-linked packages.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, repoPath } from '../src/workspace.ts';

const fixture = join(import.meta.dirname, 'fixtures', 'node10');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Every import specifier and the declaration file node10 must reach for it. */
const subpaths = publishedPackages().flatMap(({ json, path }) =>
  Object.keys(json.exports ?? {})
    .filter((key) => key !== './package.json')
    .map((key) => {
      const entry = key === '.' ? 'index' : key.slice(2);
      const specifier = key === '.' ? json.name : `${json.name}/${entry}`;
      return { specifier, types: repoPath(join(path, 'dist', `${entry}.d.ts`)) };
    }),
);

describe('node10 type resolution', () => {
  it('the fixture imports every subpath of every package', () => {
    const source = readFileSync(join(fixture, 'imports.ts'), 'utf8');
    const imported = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imported.sort()).toEqual(subpaths.map(({ specifier }) => specifier).sort());
  });

  it('type-checks, reading each subpath from its dist declaration file', () => {
    const run = spawnSync(process.execPath, [tsc, '-p', fixture, '--listFiles'], {
      encoding: 'utf8',
    });
    expect(run.stdout.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(run.status).toBe(0);
    const read = new Set(run.stdout.split('\n').map((line) => repoPath(line.trim())));
    for (const { specifier, types } of subpaths) expect(read.has(types), specifier).toBe(true);
  }, 120_000);
});
