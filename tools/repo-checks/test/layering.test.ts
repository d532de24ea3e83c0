import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanImports } from '../src/imports.ts';
import { checkLayering, type LayeringFile, type LayeringPackage, layers } from '../src/layering.ts';
import { publishedPackages, repoPath, tsFilesUnder } from '../src/workspace.ts';

const packages = publishedPackages();

function layeringPackages(): LayeringPackage[] {
  return packages.map(({ path, json }) => ({
    name: json.name,
    dir: path,
    exportSubpaths: Object.keys(json.exports ?? {}),
    dependencies: Object.keys(json.dependencies ?? {}),
  }));
}

describe('layering (DESIGN.md)', () => {
  it('places every package of packages/ in the layering', () => {
    expect(packages.map((pkg) => pkg.json.name).sort()).toEqual(Object.keys(layers).sort());
  });

  it('declares internal dependencies only on lower layers', () => {
    for (const { json } of packages) {
      for (const dep of Object.keys(json.dependencies ?? {})) {
        if (!dep.startsWith('@twofold/')) continue;
        expect(layers[dep], `${json.name} -> ${dep}`).toBeLessThan(layers[json.name] ?? -1);
      }
    }
  });

  it('finds no import across the layering in packages/*/src', () => {
    const files: LayeringFile[] = packages.flatMap(({ path, json }) =>
      tsFilesUnder(join(path, 'src')).map((file) => ({
        path: file,
        packageName: json.name,
        specifiers: scanImports(readFileSync(file, 'utf8')).specifiers,
      })),
    );
    expect(files.length).toBeGreaterThan(0);
    const violations = checkLayering(layeringPackages(), files).map(
      (v) => `${repoPath(v.path)}: '${v.specifier}' ${v.reason}`,
    );
    expect(violations).toEqual([]);
  });
});

// The checker itself, on in-memory fixtures, so a broken checker cannot pass silently.
describe('layering checker', () => {
  const root = resolve('/fixture/packages');
  const pkg = (name: string, dependencies: string[] = []): LayeringPackage => ({
    name: `@twofold/${name}`,
    dir: join(root, name),
    exportSubpaths: ['.', './experimental', './package.json'],
    dependencies: dependencies.map((dep) => `@twofold/${dep}`),
  });
  const fixture = [
    pkg('protocol'),
    pkg('transports', ['protocol']),
    pkg('server', ['protocol', 'transports']),
    pkg('client', ['protocol', 'transports']),
  ];
  const reasons = (packageName: string, ...specifiers: string[]) => {
    const dir = packageName.replace('@twofold/', '');
    const path = join(root, dir, 'src', 'a', 'b.ts');
    return checkLayering(fixture, [{ path, packageName, specifiers }]).map((v) => v.reason);
  };

  it('accepts imports of lower layers through public entry points', () => {
    expect(
      reasons(
        '@twofold/server',
        '@twofold/protocol',
        '@twofold/transports/experimental',
        '../c',
        './d.js',
        'zod',
      ),
    ).toEqual([]);
  });

  it('rejects an import of a higher layer', () => {
    expect(reasons('@twofold/protocol', '@twofold/transports')).toEqual([
      '@twofold/transports is not below @twofold/protocol in the layering',
    ]);
  });

  it('rejects server and client importing each other', () => {
    expect(reasons('@twofold/server', '@twofold/client/experimental')).toHaveLength(1);
    expect(reasons('@twofold/client', '@twofold/server')).toHaveLength(1);
  });

  it('rejects a package importing itself by name', () => {
    expect(reasons('@twofold/server', '@twofold/server/experimental')).toHaveLength(1);
  });

  it('rejects reaching into internals', () => {
    expect(
      reasons(
        '@twofold/server',
        '@twofold/protocol/src/wire/content',
        '@twofold/protocol/dist/index.js',
      ),
    ).toEqual([expect.stringContaining('internals'), expect.stringContaining('internals')]);
  });

  it('rejects a relative import that leaves the package', () => {
    expect(reasons('@twofold/server', '../../../protocol/src/index')).toEqual([
      'relative import escapes its package',
    ]);
  });

  it('rejects an undeclared dependency and an unknown package', () => {
    const packages = [pkg('protocol'), pkg('transports')];
    const file = {
      path: join(root, 'transports', 'src', 'x.ts'),
      packageName: '@twofold/transports',
      specifiers: ['@twofold/protocol', '@twofold/nope'],
    };
    expect(checkLayering(packages, [file]).map((v) => v.reason)).toEqual([
      '@twofold/protocol is not in @twofold/transports dependencies',
      'imports unknown package @twofold/nope',
    ]);
  });
});
