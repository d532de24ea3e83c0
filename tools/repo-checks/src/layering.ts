import { dirname, resolve, sep } from 'node:path';

/**
 * The layering of DESIGN.md: a package may import only packages on a lower layer. server and
 * client share a layer, so neither may import the other.
 */
export const layers: Readonly<Record<string, number>> = {
  '@twofold/protocol': 0,
  '@twofold/transports': 1,
  '@twofold/server': 2,
  '@twofold/client': 2,
  '@twofold/registry-adapter': 3,
  '@twofold/redis': 3,
  '@twofold/cli': 4,
};

/** What the checker needs to know about a package. */
export interface LayeringPackage {
  name: string;
  /** Absolute package directory. */
  dir: string;
  /** Keys of its package.json `exports` (`.`, `./experimental`, …): its public entry points. */
  exportSubpaths: string[];
  /** Names in its package.json `dependencies`. */
  dependencies: string[];
}

/** One scanned source file of a package. */
export interface LayeringFile {
  /** Absolute path. */
  path: string;
  /** Name of the package the file belongs to. */
  packageName: string;
  specifiers: string[];
}

/** A broken rule, with the file and the import that breaks it. */
export interface LayeringViolation {
  path: string;
  specifier: string;
  reason: string;
}

/** Splits `@twofold/x/sub/path` into the package name and its `./sub/path` export subpath. */
function parseTwofoldSpecifier(specifier: string): { name: string; subpath: string } {
  const [scope, base, ...rest] = specifier.split('/');
  return { name: `${scope}/${base}`, subpath: rest.length === 0 ? '.' : `./${rest.join('/')}` };
}

/** Checks every import of `files` against the layering rules; returns the violations. */
export function checkLayering(
  packages: readonly LayeringPackage[],
  files: readonly LayeringFile[],
): LayeringViolation[] {
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const violations: LayeringViolation[] = [];
  for (const file of files) {
    const own = byName.get(file.packageName);
    if (!own) throw new Error(`unknown package ${file.packageName} for ${file.path}`);
    for (const specifier of file.specifiers) {
      const reason = checkSpecifier(own, file.path, specifier, byName);
      if (reason) violations.push({ path: file.path, specifier, reason });
    }
  }
  return violations;
}

function checkSpecifier(
  own: LayeringPackage,
  path: string,
  specifier: string,
  byName: ReadonlyMap<string, LayeringPackage>,
): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = resolve(dirname(path), specifier);
    return target.startsWith(own.dir + sep) ? undefined : 'relative import escapes its package';
  }
  if (!specifier.startsWith('@twofold/')) return undefined;
  const { name, subpath } = parseTwofoldSpecifier(specifier);
  const target = byName.get(name);
  if (!target) return `imports unknown package ${name}`;
  if (name === own.name) return 'imports its own package by name; use a relative import';
  const ownLayer = layers[own.name];
  const targetLayer = layers[name];
  if (ownLayer === undefined) return `${own.name} has no place in the layering`;
  if (targetLayer === undefined || targetLayer >= ownLayer) {
    return `${name} is not below ${own.name} in the layering`;
  }
  if (!target.exportSubpaths.includes(subpath)) {
    return `reaches into ${name} internals; public entry points: ${target.exportSubpaths.join(', ')}`;
  }
  if (!own.dependencies.includes(name)) return `${name} is not in ${own.name} dependencies`;
  return undefined;
}
