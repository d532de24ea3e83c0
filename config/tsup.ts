import type { Options } from 'tsup';
import { packageDefines, readPackageJson } from './package-json.ts';

/** Options of {@link definePackageBuild}. */
export interface PackageBuildOptions {
  /**
   * Entry names: each `name` builds `src/<name>.ts` to `dist/<name>.{js,cjs,d.ts,d.cts}`.
   * Adding a subpath (for example `stdio`) is one more name here plus its `exports` entry.
   */
  entries: readonly string[];
  /**
   * Dependencies built into the package's own files instead of imported at run time. Only for
   * leaf libraries called as plain functions (no classes shared with users, no types in the
   * declarations): loading one bundled file costs a fraction of resolving and loading the
   * library's many modules, on every import of the package. Each goes in `devDependencies`
   * and in the package's THIRD-PARTY-NOTICES.md.
   */
  bundled?: readonly string[];
}

/**
 * The tsup config of a twofold package, run from the package's directory: ESM + CJS with
 * per-format types. Dependencies stay external (tsup's default), so `@twofold/protocol` exists
 * once at run time and its error classes keep `instanceof`; the few `bundled` ones are the
 * exception.
 */
export function definePackageBuild(options: PackageBuildOptions): Options {
  const pkg = readPackageJson(process.cwd());
  return {
    entry: Object.fromEntries(options.entries.map((name) => [name, `src/${name}.ts`])),
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2022',
    // Neutral keeps root entries free of Node assumptions; Node-only subpaths import `node:*`,
    // which must stay external rather than be resolved.
    platform: 'neutral',
    external: [/^node:/],
    noExternal: [...(options.bundled ?? [])],
    define: packageDefines(pkg),
    // Names are not kept: keeping them wraps every closure a hot path creates in a call that
    // defines its `name` (about a sixth of a client's time per call). A class whose body names
    // its own class would print as `_Name`; the class-names check finds any.
    keepNames: false,
  };
}
