// Pins the published surface of every package. Changing an export map here is a decision about
// what users can import: make it in the same change as the package.json edit.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PackageJson, publishedPackages } from '../src/workspace.ts';

/** The exports entry of one tsup entry: ESM and CJS, each with its own types. */
const dual = (name: string) => ({
  import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
  require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
});

/** The two entries every package has: the stable root and the experimental gate. */
const rootAndExperimental = {
  '.': dual('index'),
  './experimental': dual('experimental'),
  './package.json': './package.json',
};

const rootFields = {
  main: './dist/index.cjs',
  module: './dist/index.js',
  types: './dist/index.d.ts',
};

/** The published surface of each package: `exports`, and `main`/`module`/`types`/`bin`. */
const expected: Record<
  string,
  Pick<PackageJson, 'exports' | 'main' | 'module' | 'types' | 'bin'>
> = {
  '@twofold/protocol': {
    // `./skills` reads SKILL.md frontmatter: the YAML parser stays out of `./experimental`.
    exports: {
      '.': dual('index'),
      './experimental': dual('experimental'),
      './skills': dual('skills'),
      './package.json': './package.json',
    },
    ...rootFields,
  },
  '@twofold/transports': {
    // Node-only code lives on named subpaths; the root and experimental entries stay neutral.
    // `./stdio` is the stdio part of `./node` alone, and `./http-server` the HTTP server core:
    // a stdio program loads neither the HTTP server nor `node:http`.
    exports: {
      '.': dual('index'),
      './experimental': dual('experimental'),
      './stdio': dual('stdio'),
      './http': dual('http'),
      './http-server': dual('http-server'),
      './node': dual('node'),
      './testing': dual('testing'),
      './package.json': './package.json',
    },
    ...rootFields,
  },
  '@twofold/server': {
    // serveStdio and serveHttp are Node-only; `./stdio` is the deprecated alias of `./node`.
    // `./http` (createServerHttpHandler) is runtime-neutral, apart so a stdio server skips it.
    // `./skills` (defineSkill) carries the YAML parser that a server without skills never loads.
    // Each framework adapter gets its own subpath (its framework is an optional peer): express
    // and fastify are Node-only, hono and next runtime-neutral. `./opentelemetry` is the one
    // entry that loads the optional peer `@opentelemetry/api`.
    exports: {
      '.': dual('index'),
      './experimental': dual('experimental'),
      './http': dual('http'),
      './node': dual('node'),
      './stdio': dual('stdio'),
      './skills': dual('skills'),
      './express': dual('express'),
      './fastify': dual('fastify'),
      './hono': dual('hono'),
      './next': dual('next'),
      './opentelemetry': dual('opentelemetry'),
      './package.json': './package.json',
    },
    ...rootFields,
  },
  '@twofold/client': {
    // The stdio and HTTP targets are Node-only; McpClient itself stays neutral.
    // `./opentelemetry` is the one entry that loads the optional peer `@opentelemetry/api`.
    exports: {
      '.': dual('index'),
      './experimental': dual('experimental'),
      './node': dual('node'),
      './opentelemetry': dual('opentelemetry'),
      './package.json': './package.json',
    },
    ...rootFields,
  },
  '@twofold/registry-adapter': {
    // The manager is Node-only; each host-format adapter needs its host library (an optional
    // peer), so it gets its own subpath and the experimental entry never loads them.
    exports: {
      '.': dual('index'),
      './experimental': dual('experimental'),
      './node': dual('node'),
      './ai-sdk': dual('ai-sdk'),
      './openai': dual('openai'),
      './langchain': dual('langchain'),
      './package.json': './package.json',
    },
    ...rootFields,
  },
  // Node-only as a whole (its client, ioredis, is): no `/node` subpath, the experimental entry
  // is the Node-only one and the root stays neutral.
  '@twofold/redis': { exports: rootAndExperimental, ...rootFields },
  // The `twofold` executable is ESM only; its commands load as split chunks.
  '@twofold/cli': {
    exports: rootAndExperimental,
    ...rootFields,
    bin: { twofold: './dist/bin.js' },
  },
};

/** Nested key order: condition order in `exports` matters to resolvers (`types` first). */
function keyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([key, inner]) => [key, keyOrder(inner)]);
}

const packages = publishedPackages();

const NOTICES = 'THIRD-PARTY-NOTICES.md';

/** The libraries a package's build contains (`bundled` in its tsup.config.ts). */
function bundledBy(path: string): string[] {
  const config = readFileSync(join(path, 'tsup.config.ts'), 'utf8');
  const list = /bundled:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] as string);
}

describe('export maps', () => {
  it('covers exactly the packages under packages/', () => {
    expect(packages.map((pkg) => pkg.json.name).sort()).toEqual(Object.keys(expected).sort());
  });

  it('spells one entry as ESM and CJS with per-format types', () => {
    expect(dual('index')).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
  });

  for (const { json, path } of packages) {
    describe(json.name, () => {
      const bundled = bundledBy(path);
      const surface = {
        exports: json.exports,
        main: json.main,
        module: json.module,
        types: json.types,
        bin: json.bin,
      };

      it('has the pinned export map and entry fields', () => {
        expect(surface).toEqual({ bin: undefined, ...expected[json.name] });
        expect(keyOrder(json.exports)).toEqual(keyOrder(expected[json.name]?.exports));
      });

      it('is an ESM-first, side-effect-free, public package', () => {
        expect(json).toMatchObject({
          version: expect.any(String),
          license: 'MIT',
          type: 'module',
          sideEffects: false,
          engines: { node: '>=20' },
          files: ['dist', 'README.md', 'LICENSE', ...(bundled.length > 0 ? [NOTICES] : [])],
          publishConfig: { access: 'public', provenance: true },
        });
        expect(json.private).toBeUndefined();
      });

      it('ships the notices of the libraries its build contains, and does not install them', () => {
        expect(existsSync(join(path, NOTICES))).toBe(bundled.length > 0);
        const notices = bundled.length > 0 ? readFileSync(join(path, NOTICES), 'utf8') : '';
        for (const name of bundled) {
          expect(json.dependencies?.[name], name).toBeUndefined();
          expect(json.devDependencies?.[name], name).toBeDefined();
          expect(notices).toContain(`## ${name}\n`);
        }
      });

      it('depends on other twofold packages through workspace:^', () => {
        const all = { ...json.dependencies, ...json.peerDependencies, ...json.devDependencies };
        for (const [name, range] of Object.entries(all)) {
          if (name.startsWith('@twofold/')) expect(range, name).toBe('workspace:^');
        }
      });
    });
  }
});
