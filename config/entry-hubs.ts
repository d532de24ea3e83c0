import { join, relative } from 'node:path';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];
type PluginBuild = Parameters<EsbuildPlugin['setup']>[0];

/** The modules an entry is built from, and the names its built file exports. */
interface Hub {
  name: string;
  files: ReadonlySet<string>;
  exports: readonly string[];
}

const HUB_NAMESPACE = 'entry-hub';
const RESOLVING = Symbol('entry-hub resolving');

/** Builds `src/<name>.ts` once, unwritten, for its module graph and its export names. */
async function hubOf(build: PluginBuild, name: string): Promise<Hub> {
  const cwd = process.cwd();
  const result = await build.esbuild.build({
    entryPoints: { [name]: join(cwd, 'src', `${name}.ts`) },
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(cwd, 'dist'),
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    external: ['node:*'],
    logLevel: 'silent',
  });
  const outputs = Object.values(result.metafile.outputs);
  const entry = outputs.find((output) => output.entryPoint !== undefined);
  if (entry === undefined) throw new Error(`entry hub ${name}: no output`);
  const files = new Set(Object.keys(result.metafile.inputs).map((input) => join(cwd, input)));
  return { name, files, exports: entry.exports };
}

/** The names a source module exports at run time (types are gone). */
async function exportsOf(build: PluginBuild, path: string): Promise<readonly string[]> {
  const result = await build.esbuild.build({
    entryPoints: [path],
    write: false,
    metafile: true,
    outdir: join(process.cwd(), 'dist'),
    format: 'esm',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.exports);
}

/**
 * Builds the package's other entries against its hub entries instead of beside them. Without
 * it, code two entries share goes into split chunks, so a program importing
 * `@twofold/server/experimental` and `@twofold/server/node` loads half a dozen files per
 * package, and each module Node resolves and links costs about half a millisecond at start.
 * With it, a module of a hub's graph that another entry imports is taken from the hub's own
 * file (`./experimental.js`, or `.cjs`) when the hub exports all of its names; one with
 * internal names stays in a chunk the entries share. In CJS, which has no shared chunks, it
 * also keeps one copy of each hub class across entries; a chunk's modules, though, are copied
 * into each CJS entry, each copy with its own classes and module state, and so is what such a
 * module imports from the hub's graph, whole names or not. A package lists such modules in a
 * `shared` hub (an entry no `exports` path names) so that they exist once.
 * Hubs are tried in order: `['experimental', 'node']` lets `node` take the core from
 * `experimental` and a third entry take both.
 */
export function entryHubs(names: readonly string[]): EsbuildPlugin {
  return {
    name: 'entry-hubs',
    async setup(build) {
      const extension = build.initialOptions.format === 'cjs' ? '.cjs' : '.js';
      const hubs = await Promise.all(names.map((name) => hubOf(build, name)));
      const hubFiles = new Set(hubs.map((hub) => `./${hub.name}${extension}`));
      // Several modules import the same hub module: read its names once.
      const namesOf = new Map<string, Promise<readonly string[]>>();
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.namespace === HUB_NAMESPACE && hubFiles.has(args.path)) {
          return { path: args.path, external: true };
        }
        if (args.kind === 'entry-point' || args.pluginData === RESOLVING) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        const hub = hubs.find((h) => h.files.has(resolved.path));
        if (hub === undefined || hub.files.has(args.importer)) return undefined;
        // A module with names the hub keeps to itself stays in a chunk the entries share.
        let pending = namesOf.get(resolved.path);
        if (pending === undefined) {
          pending = exportsOf(build, resolved.path);
          namesOf.set(resolved.path, pending);
        }
        const names = await pending;
        if (!names.every((name) => hub.exports.includes(name))) return undefined;
        // One stand-in per importer: a stand-in two entries shared would become a chunk.
        const cwd = process.cwd();
        const path = `${relative(cwd, resolved.path)}?from=${relative(cwd, args.importer)}`;
        return { path, namespace: HUB_NAMESPACE, pluginData: { hub, names } };
      });
      build.onLoad({ filter: /.*/, namespace: HUB_NAMESPACE }, (args) => {
        const { hub, names } = args.pluginData as { hub: Hub; names: readonly string[] };
        const from = JSON.stringify(`./${hub.name}${extension}`);
        return { contents: `export { ${names.join(', ')} } from ${from};`, loader: 'js' };
      });
    },
  };
}
