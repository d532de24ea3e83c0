// No import circles (type-only and dynamic imports included) in packages/*/src and apps/*/src,
// and no folders of one source root importing one another round a loop: imports go one way,
// from entries down to base files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CircleFindings, findCircles, importGraph } from '../src/circles.ts';
import { repoPath, repoRoot, tsFilesUnder } from '../src/workspace.ts';

/** The `src` directory of every package and every app. */
function sourceRoots(): string[] {
  return ['packages', 'apps'].flatMap((group) => {
    const dir = join(repoRoot, group);
    return readdirSync(dir)
      .map((name) => join(dir, name, 'src'))
      .filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory())
      .sort();
  });
}

/** The findings as lines that name the files, so a failure says what to untie. */
function readable(findings: CircleFindings, name: (path: string) => string = repoPath) {
  return {
    circles: findings.circles.map(({ files, loop }) => {
      const round = loop.map(name).join(' -> ');
      // A loop through part of a larger circle: name every file of it too.
      return files.length === loop.length - 1
        ? round
        : `${round}, in a circle of ${files.length}: ${files.map(name).join(', ')}`;
    }),
    folderCircles: findings.folderCircles.map(
      ({ root, folders, steps }) =>
        `${name(root)}: ${folders.map((f) => `${f}/`).join(', ')} (${steps
          .map(([from, to]) => `${name(from)} -> ${name(to)}`)
          .join('; ')})`,
    ),
  };
}

describe('import circles', () => {
  it('finds none in packages/*/src and apps/*/src', () => {
    const roots = sourceRoots();
    const files = roots.flatMap((root) => tsFilesUnder(root));
    expect(files.length).toBeGreaterThan(0);
    const sources = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
    expect(readable(findCircles(importGraph(sources), roots))).toEqual({
      circles: [],
      folderCircles: [],
    });
  });
});

// The checker itself, on in-memory fixtures, so a broken checker cannot pass silently.
describe('circle checker', () => {
  const root = resolve('/fixture/src');
  const at = (path: string) => join(root, path);
  const findings = (sources: Record<string, string>) => {
    const graph = importGraph(new Map(Object.entries(sources).map(([p, s]) => [at(p), s])));
    return readable(findCircles(graph, [root]), (path) =>
      path === root ? 'src' : path.slice(root.length + 1),
    );
  };

  it('finds a circle, one way round it, and a file importing itself', () => {
    expect(
      findings({
        'a.ts': "import { b } from './b';",
        'b.ts': "export { c } from './c.js';",
        'c.ts': "const a = await import('./a');",
        'd.ts': "import { a } from './a';",
        'e.ts': "import { e } from './e';",
      }).circles,
    ).toEqual(['a.ts -> b.ts -> c.ts -> a.ts', 'e.ts -> e.ts']);
  });

  it('counts a type-only import, and resolves ./x to x/index.ts', () => {
    expect(
      findings({
        'a.ts': "import type { X } from './x';",
        'x/index.ts': "import { a } from '../a.js';",
      }).circles,
    ).toEqual(['a.ts -> x/index.ts -> a.ts']);
  });

  it('passes a graph whose imports go one way', () => {
    expect(
      findings({
        'main.ts': "import { run } from './cli/run';\nimport type { T } from './types';",
        'cli/run.ts': "import type { T } from '../types';\nimport { x } from 'zod';",
        'cli/deep/part.ts': "import { run } from '../run';",
        'types.ts': "import { isRecord } from './util';",
        'util.ts': "// import { a } from './main';",
      }),
    ).toEqual({ circles: [], folderCircles: [] });
  });

  it('finds folders that import each other, with one import per step', () => {
    expect(
      findings({
        'cli/parse.ts': "import { table } from '../commands/table';",
        'cli/io.ts': '',
        'commands/table.ts': '',
        'commands/run.ts': "import type { Io } from '../cli/io';",
      }),
    ).toEqual({
      circles: [],
      folderCircles: [
        'src: cli/, commands/ (cli/parse.ts -> commands/table.ts; commands/run.ts -> cli/io.ts)',
      ],
    });
  });

  it('finds a loop through three folders that no pair shows', () => {
    expect(
      findings({
        'a/one.ts': "import { two } from '../b/two';",
        'b/two.ts': "import { three } from '../c/three';",
        'c/three.ts': "import type { One } from '../a/one';",
      }),
    ).toEqual({
      circles: ['a/one.ts -> b/two.ts -> c/three.ts -> a/one.ts'],
      folderCircles: [
        'src: a/, b/, c/ (a/one.ts -> b/two.ts; b/two.ts -> c/three.ts; c/three.ts -> a/one.ts)',
      ],
    });
  });
  it('finds a folder loop of three even when the files form no circle', () => {
    expect(
      findings({
        'a/one.ts': "import { two } from '../b/two';",
        'a/low.ts': '',
        'b/two.ts': "import { three } from '../c/three';",
        'c/three.ts': "import type { Low } from '../a/low';",
      }),
    ).toEqual({
      circles: [],
      folderCircles: [
        'src: a/, b/, c/ (a/one.ts -> b/two.ts; b/two.ts -> c/three.ts; c/three.ts -> a/low.ts)',
      ],
    });
  });
});
