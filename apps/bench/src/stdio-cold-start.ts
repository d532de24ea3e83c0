/**
 * stdio cold start: from nothing (no process) to the first `tools/list` result, each client
 * spawning its own server, in each era. The client library is already loaded in its driver;
 * what is timed is spawn, the era decision (probe or handshake) and the first list.
 */
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import {
  FLOOR,
  FLOOR_NAME,
  OFFICIAL_V1_NAME,
  OFFICIAL_V2_LEGACY,
  OFFICIAL_V2_MODERN,
  type Pair,
  stdioTarget,
  TWOFOLD,
  TWOFOLD_LEGACY,
  TWOFOLD_MODERN,
  TWOFOLD_MODERN_JSON_SCHEMA,
} from './impls';
import type { Row, Section } from './report';
import { summarize } from './stats';
import { STDIO_TOOLS, type StdioFleet } from './stdio-fleet';

export const COLD_START_MODERN = 'modern server, auto era';
export const COLD_START_LEGACY = 'legacy handshake';

interface Contender {
  driver: number;
  pair: Pair;
}

/** Measures both eras' cold starts with the fleet's drivers; one table. */
export async function runColdStart(fleet: StdioFleet, config: BenchConfig): Promise<Section> {
  const driverOf = (name: string) => fleet.pairs.findIndex((p) => p.name === name);
  const floor = driverOf(FLOOR_NAME);
  const own = (name: string): Contender => ({
    driver: driverOf(name),
    pair: fleet.pairs[driverOf(name)] as Pair,
  });
  const floorLegacy: Pair = { name: FLOOR_NAME, impl: FLOOR, era: 'legacy', expectEra: 'legacy' };
  // The same client and server, the tools' inputs written in JSON Schema: no zod in the process.
  const jsonSchema: Contender = {
    driver: driverOf(TWOFOLD_MODERN),
    pair: {
      name: TWOFOLD_MODERN_JSON_SCHEMA,
      impl: TWOFOLD,
      era: 'auto',
      expectEra: 'modern',
      serverArgs: ['--json-schema'],
    },
  };
  const cases: { name: string; contenders: Contender[] }[] = [
    {
      name: COLD_START_MODERN,
      contenders: [own(TWOFOLD_MODERN), jsonSchema, own(OFFICIAL_V2_MODERN), own(FLOOR_NAME)],
    },
    {
      name: COLD_START_LEGACY,
      contenders: [
        own(TWOFOLD_LEGACY),
        own(OFFICIAL_V2_LEGACY),
        own(OFFICIAL_V1_NAME),
        { driver: floor, pair: floorLegacy },
      ],
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    const failures = new Map<number, string>();
    const samples = await alternate(c.contenders.length, config.coldStart, async (i) => {
      const { driver, pair } = c.contenders[i] as Contender;
      if (failures.has(i)) return Number.NaN;
      try {
        const target = stdioTarget(pair, STDIO_TOOLS);
        const result = await fleet.drivers[driver]?.send<{ ms: number }>('coldStart', { target });
        return result?.ms ?? Number.NaN;
      } catch (error) {
        failures.set(i, (error as Error).message);
        return Number.NaN;
      }
    });
    c.contenders.forEach(({ pair }, i) => {
      const failure = failures.get(i);
      rows.push({
        case: c.name,
        implementation: pair.name,
        baseline: i === 0,
        ...(failure ? { failure } : { value: summarize(samples[i] ?? []) }),
      });
    });
  }
  return {
    id: 'stdio-cold-start',
    title: 'stdio cold start: spawn → first tools/list result',
    unit: 'ms',
    better: 'lower',
    notes: [
      'Each client spawns its own server (a fresh process per sample). `auto`: twofold detects the era on the one process it spawned; the official 2.4.0 client probes on a disposable sibling process first. The floor writes `tools/list` (modern) or `initialize` + `tools/list` (legacy) by hand to the bare echo server.',
      'Every client gives the server it spawns only a few variables of its environment (`PATH`, `HOME`, the user and the terminal), as twofold and the official SDKs do by default: a variable such as `NODE_EXTRA_CA_CERTS` adds tens of milliseconds to every Node start.',
      "Every server but the floor imports zod for its tools' input schemas (the official SDKs load zod themselves in any case); _twofold modern, JSON Schema tools_ is the same twofold server with the same inputs written in JSON Schema, so its process loads no zod at all.",
    ],
    columns: [],
    rows,
  };
}
