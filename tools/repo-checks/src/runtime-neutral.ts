import { builtinModules } from 'node:module';
import { resolveRelative, scanImports } from './imports.ts';

/** Reads a file, or returns undefined when it does not exist. */
export type ReadSource = (path: string) => string | undefined;

/** An import that makes an entry depend on Node (or that could not be followed). */
export interface NeutralityViolation {
  path: string;
  specifier: string;
  reason: string;
}

/** Third-party packages that only run on Node (they wrap child_process or node:net). */
const NODE_ONLY_PACKAGES = ['undici', 'cross-spawn', 'ioredis'];

/** Whether `specifier` names a Node builtin (`node:fs`, `fs`, `fs/promises`, …) or a Node-only package. */
export function isNodeBuiltin(specifier: string): boolean {
  const bare = specifier.split('/')[0] ?? specifier;
  return (
    specifier.startsWith('node:') ||
    builtinModules.includes(specifier) ||
    NODE_ONLY_PACKAGES.includes(bare)
  );
}

/**
 * Follows the relative imports from `entry` through the package's own source files and reports
 * every Node builtin import, `/// <reference types="node" />`, and import of a `@twofold/*`
 * entry point that is not in `neutralEntries` (for example a Node-only subpath).
 * Third-party packages are not followed.
 */
export function checkRuntimeNeutral(
  entry: string,
  read: ReadSource,
  neutralEntries: ReadonlySet<string>,
): NeutralityViolation[] {
  const violations: NeutralityViolation[] = [];
  const seen = new Set<string>();
  const queue = [entry];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const source = read(path);
    if (source === undefined) {
      violations.push({ path, specifier: '', reason: 'source file not found' });
      continue;
    }
    const { specifiers, typeReferences } = scanImports(source);
    if (typeReferences.includes('node')) {
      violations.push({ path, specifier: 'types="node"', reason: 'references Node types' });
    }
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(path, specifier, (file) => read(file) !== undefined);
        if (target) queue.push(target);
        else violations.push({ path, specifier, reason: 'cannot resolve relative import' });
      } else if (isNodeBuiltin(specifier)) {
        violations.push({ path, specifier, reason: 'imports a Node builtin' });
      } else if (specifier.startsWith('@twofold/') && !neutralEntries.has(specifier)) {
        violations.push({ path, specifier, reason: 'imports a twofold entry not known neutral' });
      }
    }
  }
  return violations;
}
