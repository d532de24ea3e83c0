/**
 * Footprint: what a user installs for a client, a server and both, computed from what is
 * installed here. The production dependency closure is walked through node_modules (pnpm's
 * symlinks resolved with realpath, the way Node resolves them), file sizes summed and distinct
 * packages counted. twofold's own packages count what their `files` field would publish (plus
 * package.json, README and LICENSE, which npm always packs), not their sources.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BENCH_DIR, FLOOR_NAME } from './impls';
import type { Row, Section } from './report';

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup of `name` from `dir`: `<ancestor>/node_modules/<name>`, realpath'd. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Bytes of every file under `path`, nested node_modules excluded. */
function treeBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') total += treeBytes(join(path, entry));
  }
  return total;
}

/** A workspace package (not under node_modules) is counted as `npm pack` would publish it. */
function publishedBytes(dir: string, manifest: Manifest): number {
  if (dir.split(/[\\/]/).includes('node_modules') || !manifest.files) return treeBytes(dir);
  const always = readdirSync(dir).filter((f) => /^(package\.json|readme|license)/i.test(f));
  const listed = manifest.files.filter((f) => existsSync(join(dir, f)));
  return [...new Set([...always, ...listed])].reduce((n, f) => n + treeBytes(join(dir, f)), 0);
}

/** Installed size and package count of the closure of `roots`. */
export function closureOf(roots: readonly string[]): {
  bytes: number;
  packages: number;
  missing: string[];
} {
  const seen = new Map<string, number>();
  const missing: string[] = [];
  const visit = (name: string, from: string, optional: boolean) => {
    const dir = resolvePackage(name, from);
    if (!dir) {
      if (!optional) missing.push(name);
      return;
    }
    if (seen.has(dir)) return;
    const manifest = readManifest(dir);
    seen.set(dir, publishedBytes(dir, manifest));
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
    // npm 7+ installs required peers too; optional peers only when the user asks for them.
    for (const dep of Object.keys(manifest.peerDependencies ?? {})) {
      if (manifest.peerDependenciesMeta?.[dep]?.optional !== true) visit(dep, dir, false);
    }
  };
  for (const root of roots) visit(root, BENCH_DIR, false);
  const bytes = [...seen.values()].reduce((a, b) => a + b, 0);
  return { bytes, packages: seen.size, missing };
}

/** What each implementation's user installs, by role. */
export const INSTALLS: readonly {
  implementation: string;
  baseline?: boolean;
  client: string[];
  server: string[];
}[] = [
  {
    implementation: 'twofold',
    baseline: true,
    client: ['@twofold/client'],
    server: ['@twofold/server'],
  },
  {
    implementation: 'official 2.4.0',
    client: ['@modelcontextprotocol/client'],
    // A Node HTTP server needs the Node adapter beside the server package.
    server: ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
  },
  {
    implementation: 'official 1.32.2',
    client: ['@modelcontextprotocol/sdk'],
    server: ['@modelcontextprotocol/sdk'],
  },
  { implementation: FLOOR_NAME, client: [], server: [] },
];

export const FOOTPRINT_BOTH = 'client + server';

/** The install-size table. */
export function runFootprint(): Section {
  const rows: Row[] = [];
  for (const role of ['client', 'server', FOOTPRINT_BOTH] as const) {
    for (const install of INSTALLS) {
      const roots = [
        ...new Set(
          role === FOOTPRINT_BOTH ? [...install.client, ...install.server] : install[role],
        ),
      ];
      const closure = closureOf(roots);
      const mib = closure.bytes / 1024 / 1024;
      rows.push({
        case: role,
        implementation: install.implementation,
        baseline: install.baseline,
        value: { median: mib, min: mib, max: mib, n: 1 },
        extra: {
          packages: closure.packages,
          dependencies: Math.max(0, closure.packages - roots.length),
          roots: roots.length === 0 ? 'plain Node' : roots.join(', '),
          ...(closure.missing.length > 0 ? { missing: closure.missing.join(', ') } : {}),
        },
      });
    }
  }
  return {
    id: 'footprint-install',
    title: 'Footprint: install size and dependency count',
    unit: 'MiB on disk',
    better: 'lower',
    notes: [
      "Production dependency closure as installed here (dependencies, optional dependencies present on this platform, required peer dependencies; optional peers are not installed by npm and not counted), file bytes summed; each package counted once. twofold's packages count their published files (`files`: dist, README, package.json), not sources. The official 2.4.0 server includes `@modelcontextprotocol/node`, its Node HTTP adapter (2.1.2, the release that pairs with server 2.4.0).",
    ],
    columns: [
      { key: 'packages', header: 'packages', ratio: true },
      { key: 'dependencies', header: 'of which dependencies' },
      { key: 'roots', header: 'installed' },
    ],
    rows,
  };
}
