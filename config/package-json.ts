import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json that the build and test factories use. */
export interface PackageJson {
  name: string;
  version: string;
}

/** Reads `package.json` from `dir` (the package being built or tested). */
export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Build-time constants shared by tsup and vitest, so tests from source see what dist sees. */
export function packageDefines(pkg: PackageJson): Record<string, string> {
  return { __TWOFOLD_VERSION__: JSON.stringify(pkg.version) };
}
