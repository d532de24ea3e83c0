import { readFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { entryHubs } from './entry-hubs.ts';
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
   * library's many modules, on every import of the package. They are built in minified. Each
   * goes in `devDependencies` and in the package's THIRD-PARTY-NOTICES.md.
   */
  bundled?: readonly string[];
  /**
   * Entries the others import through (see {@link entryHubs}), in order: usually
   * `['experimental', 'node']`. Entries that load optional peers (frameworks, OpenTelemetry)
   * are never hubs, so that importing a hub does not load them.
   */
  hubs?: readonly string[];
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
    esbuildPlugins: [
      ...(options.hubs?.length ? [entryHubs(options.hubs)] : []),
      jsonAsParse(),
      ...(options.bundled?.length ? [minifyBundled(options.bundled)] : []),
    ],
    define: packageDefines(pkg),
    // Names are not kept: keeping them wraps every closure a hot path creates in a call that
    // defines its `name` (about a sixth of a client's time per call). A class whose body names
    // its own class would print as `_Name`; the class-names check finds any.
    keepNames: false,
  };
}

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Minifies the modules of the `bundled` libraries (and only those) as they are loaded. Every
 * import of the package parses them and every install carries them: minified, `yaml` and
 * `@cfworker/json-schema` take about a quarter fewer bytes in each build (the bundler prints
 * them with its own indentation again), and the package's own code stays readable.
 */
function minifyBundled(names: readonly string[]): EsbuildPlugin {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const filter = new RegExp(
    `[\\\\/]node_modules[\\\\/](?:${escaped.join('|')})[\\\\/].*\\.[cm]?js$`,
  );
  return {
    name: 'minify-bundled',
    setup(build) {
      build.onLoad({ filter }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const { code } = await build.esbuild.transform(source, { loader: 'js', minify: true });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * A JSON module of the package's own (the compiled wire's data) becomes `JSON.parse('…')`
 * rather than an object literal: V8 scans a string and parses JSON much faster than it compiles
 * a literal of the same size, and every import pays for it.
 */
function jsonAsParse(): EsbuildPlugin {
  return {
    name: 'json-as-parse',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, async (args) => {
        if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        const text = JSON.stringify(JSON.parse(await readFile(args.path, 'utf8')));
        return { contents: `export default JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
      });
    },
  };
}
