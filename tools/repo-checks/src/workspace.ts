import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file's place in tools/repo-checks/src. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The package.json fields the checks read. */
export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  type?: string;
  sideEffects?: boolean;
  license?: string;
  keywords?: string[];
  homepage?: string;
  bugs?: { url: string };
  repository?: { type: string; url: string; directory?: string };
  engines?: Record<string, string>;
  files?: string[];
  main?: string;
  module?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: Record<string, unknown>;
  typesVersions?: Record<string, Record<string, string[]>>;
  publishConfig?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A published package under packages/. */
export interface WorkspacePackage {
  /** Directory name, e.g. `protocol`. */
  dir: string;
  /** Absolute directory. */
  path: string;
  json: PackageJson;
}

/** Every package under packages/, sorted by directory name. */
export function publishedPackages(): WorkspacePackage[] {
  const packagesDir = join(repoRoot, 'packages');
  return readdirSync(packagesDir)
    .filter((dir) => statSync(join(packagesDir, dir, 'package.json'), { throwIfNoEntry: false }))
    .sort()
    .map((dir) => {
      const path = join(packagesDir, dir);
      const json = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as PackageJson;
      return { dir, path, json };
    });
}

/** Every `.ts` file under `dir`, recursively, as absolute paths. */
export function tsFilesUnder(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file))
    .sort();
}

/** `path` relative to the repository root, with forward slashes (for messages). */
export function repoPath(path: string): string {
  return relative(repoRoot, path).split(sep).join('/');
}
