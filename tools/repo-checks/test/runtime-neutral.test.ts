// Root entries stay runtime-neutral (browser, Workers, Deno, Bun): starting from each entry's
// source file, every file reachable through relative imports is scanned, and an import of a
// Node builtin (`node:*` or a bare builtin name), a `/// <reference types="node" />`, or an import
// of a twofold entry point not listed below fails the test. Node-only code belongs on named
// subpaths (one `/node` per package, e.g. `@twofold/server/node`), which are not checked here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRuntimeNeutral, type ReadSource } from '../src/runtime-neutral.ts';
import { publishedPackages, repoPath } from '../src/workspace.ts';

/** Entry points that must stay runtime-neutral, as import specifiers. */
const neutralEntries = new Set([
  '@twofold/protocol',
  '@twofold/protocol/experimental',
  '@twofold/protocol/skills',
  '@twofold/transports',
  '@twofold/transports/experimental',
  '@twofold/transports/http',
  '@twofold/transports/http-server',
  '@twofold/server',
  '@twofold/server/experimental',
  '@twofold/server/http',
  '@twofold/server/hono',
  '@twofold/server/next',
  '@twofold/server/opentelemetry',
  '@twofold/server/skills',
  '@twofold/client',
  '@twofold/client/experimental',
  '@twofold/client/opentelemetry',
  '@twofold/registry-adapter',
  '@twofold/registry-adapter/experimental',
  // Only the root: the whole API of @twofold/redis is Node-only, as its client ioredis is.
  '@twofold/redis',
  '@twofold/cli',
]);

const readFromDisk: ReadSource = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

describe('runtime-neutral entry points', () => {
  const packages = publishedPackages();

  it('lists every package root', () => {
    for (const { json } of packages) expect(neutralEntries.has(json.name), json.name).toBe(true);
  });

  it('treats every /node and /stdio entry as Node-only', () => {
    const nodeOnly = packages.flatMap(({ json }) =>
      Object.keys(json.exports ?? {})
        .filter((key) => key === './node' || key === './stdio')
        .map((key) => `${json.name}${key.slice(1)}`),
    );
    expect(nodeOnly).toContain('@twofold/server/node');
    expect(nodeOnly).toContain('@twofold/transports/node');
    for (const specifier of nodeOnly) expect(neutralEntries.has(specifier), specifier).toBe(false);
  });

  for (const specifier of neutralEntries) {
    it(`${specifier} imports no Node module`, () => {
      const [, base, subpath] = specifier.split('/');
      const pkg = packages.find((p) => p.json.name === `@twofold/${base}`);
      expect(pkg, specifier).toBeDefined();
      // The build maps subpath `./<name>` to src/<name>.ts (config/tsup.ts).
      const entry = join(pkg?.path ?? '', 'src', `${subpath ?? 'index'}.ts`);
      const violations = checkRuntimeNeutral(entry, readFromDisk, neutralEntries).map(
        (v) => `${repoPath(v.path)}: '${v.specifier}' ${v.reason}`,
      );
      expect(violations).toEqual([]);
    });
  }
});

// The checker itself, on in-memory fixtures.
describe('runtime-neutral checker', () => {
  const dir = resolve('/fixture/src');
  const files: Record<string, string> = {
    [join(dir, 'index.ts')]: "export * from './a.js';\nexport { b } from './b';\n",
    [join(dir, 'a.ts')]: "// import 'node:fs' in a comment is fine\nexport const a = 1;\n",
    [join(dir, 'b', 'index.ts')]: "import type { Server } from 'node:http';\nexport const b = 2;\n",
    [join(dir, 'c.ts')]: "import { spawn } from 'child_process';\nimport '@twofold/server/node';\n",
  };
  const read: ReadSource = (path) => files[path];

  it('finds a Node import in a file reached through a directory index', () => {
    expect(checkRuntimeNeutral(join(dir, 'index.ts'), read, new Set())).toEqual([
      {
        path: join(dir, 'b', 'index.ts'),
        specifier: 'node:http',
        reason: 'imports a Node builtin',
      },
    ]);
  });

  it('flags bare builtin names and non-neutral twofold entries', () => {
    const reasons = checkRuntimeNeutral(join(dir, 'c.ts'), read, new Set(['@twofold/protocol']));
    expect(reasons.map((v) => v.specifier)).toEqual(['child_process', '@twofold/server/node']);
  });

  it('accepts a file without Node imports', () => {
    expect(checkRuntimeNeutral(join(dir, 'a.ts'), read, new Set())).toEqual([]);
  });
});
