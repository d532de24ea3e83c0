/**
 * The implementations the benchmark puts side by side, and where each one's pieces live. To add
 * one: a server fixture under `impls/servers/` (stdio and `--transport http`), a client driver
 * under `impls/clients/` (an adapter handed to `runDriver`), and an entry here; every section
 * picks it up from `STDIO_PAIRS` / `HTTP_GROUPS`.
 */
import { fileURLToPath } from 'node:url';
import { profileNodeArgs } from './profiling';

/** The era a client is asked for: `auto` detects it. */
export type Era = 'auto' | 'modern' | 'legacy';

/** One library (or the floor): its client driver and its server fixture. */
export interface Implementation {
  id: string;
  label: string;
  /** Client driver script (`runDriver(adapter)`). */
  client: string;
  /** Server fixture script (`--transport stdio|http --tools N [--era modern|legacy]`). */
  server: string;
}

/** The bench package's directory: the working directory of every child process. */
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

const script = (path: string) => fileURLToPath(new URL(`./impls/${path}`, import.meta.url));

const implementation = (id: string, label: string): Implementation => ({
  id,
  label,
  client: script(`clients/${id}.mjs`),
  server: script(`servers/${id}.mjs`),
});

export const TWOFOLD = implementation('twofold', 'twofold');
export const OFFICIAL_V2 = implementation('official-v2', 'official SDK 2.4.0');
export const OFFICIAL_V1 = implementation('official-v1', 'official SDK 1.32.2');
export const FLOOR = implementation('floor', 'floor');

/** A client of one implementation against its own server, in one era: one row of a table. */
export interface Pair {
  /** Row label. */
  name: string;
  impl: Implementation;
  /** What the client is asked for. */
  era: Era;
  /** What it must conclude. */
  expectEra: 'modern' | 'legacy';
  /** twofold's row: the denominator of the ratios. */
  baseline?: boolean;
  /** Further options of its server fixture. */
  serverArgs?: readonly string[];
}

export const TWOFOLD_MODERN = 'twofold modern';
export const TWOFOLD_LEGACY = 'twofold legacy';
/** twofold's modern server with its tools' inputs in JSON Schema: a process without zod. */
export const TWOFOLD_MODERN_JSON_SCHEMA = 'twofold modern, JSON Schema tools';
export const OFFICIAL_V2_MODERN = 'official 2.4.0 modern';
/** The official modern HTTP server with everything but the per-request instance built once. */
export const OFFICIAL_V2_MODERN_PREBUILT = 'official 2.4.0 modern, schemas built once';
export const OFFICIAL_V2_LEGACY = 'official 2.4.0 legacy';
export const OFFICIAL_V1_NAME = 'official 1.32.2';
export const FLOOR_NAME = 'floor';

/**
 * The stdio pairs: each client against its own server. twofold and the official 2.4.0 client
 * reach the modern era with `auto` (what a user writes for it); legacy is twofold pinned and
 * the official 2.4.0 default.
 */
export const STDIO_PAIRS: readonly Pair[] = [
  { name: TWOFOLD_MODERN, impl: TWOFOLD, era: 'auto', expectEra: 'modern', baseline: true },
  { name: TWOFOLD_LEGACY, impl: TWOFOLD, era: 'legacy', expectEra: 'legacy' },
  { name: OFFICIAL_V2_MODERN, impl: OFFICIAL_V2, era: 'auto', expectEra: 'modern' },
  { name: OFFICIAL_V2_LEGACY, impl: OFFICIAL_V2, era: 'legacy', expectEra: 'legacy' },
  { name: OFFICIAL_V1_NAME, impl: OFFICIAL_V1, era: 'legacy', expectEra: 'legacy' },
  { name: FLOOR_NAME, impl: FLOOR, era: 'modern', expectEra: 'modern' },
];

/** stdio target of a pair: how its client starts its server. */
export function stdioTarget(pair: Pair, tools: number) {
  return {
    kind: 'stdio' as const,
    command: process.execPath,
    // --expose-gc: the memory readings force a collection first.
    args: [
      '--expose-gc',
      ...profileNodeArgs(pair.name, 'stdio-server'),
      pair.impl.server,
      '--transport',
      'stdio',
      '--tools',
      String(tools),
      ...(pair.serverArgs ?? []),
    ],
    cwd: BENCH_DIR,
    era: pair.era,
    expectEra: pair.expectEra,
    tools,
  };
}

/** HTTP target of a pair: its client against the endpoint at `url`. */
export function httpTarget(pair: Pair, url: string, tools: number) {
  return { kind: 'http' as const, url, era: pair.era, expectEra: pair.expectEra, tools };
}

export type Target = ReturnType<typeof stdioTarget> | ReturnType<typeof httpTarget>;

/** The HTTP pairs, by era group: modern stateless requests, legacy sessions. */
export const HTTP_GROUPS: readonly { group: 'modern' | 'legacy'; label: string; pairs: Pair[] }[] =
  [
    {
      group: 'modern',
      label: 'modern stateless',
      pairs: [
        { name: TWOFOLD_MODERN, impl: TWOFOLD, era: 'auto', expectEra: 'modern', baseline: true },
        { name: OFFICIAL_V2_MODERN, impl: OFFICIAL_V2, era: 'auto', expectEra: 'modern' },
        {
          name: OFFICIAL_V2_MODERN_PREBUILT,
          impl: OFFICIAL_V2,
          era: 'auto',
          expectEra: 'modern',
          serverArgs: ['--prebuilt'],
        },
        { name: FLOOR_NAME, impl: FLOOR, era: 'modern', expectEra: 'modern' },
      ],
    },
    {
      group: 'legacy',
      label: 'legacy sessions',
      pairs: [
        { name: TWOFOLD_LEGACY, impl: TWOFOLD, era: 'legacy', expectEra: 'legacy', baseline: true },
        { name: OFFICIAL_V2_LEGACY, impl: OFFICIAL_V2, era: 'legacy', expectEra: 'legacy' },
        { name: OFFICIAL_V1_NAME, impl: OFFICIAL_V1, era: 'legacy', expectEra: 'legacy' },
        { name: FLOOR_NAME, impl: FLOOR, era: 'legacy', expectEra: 'legacy' },
      ],
    },
  ];
