/**
 * HTTP on 127.0.0.1: `tools/call` per second, p50 / p99 and the server's CPU per call at
 * concurrency 1, 16 and 64, for a 2-tool and a 50-tool server, modern stateless and legacy
 * sessions; once through the raw load generator (the exact requests each client sends) and
 * once through each implementation's own client. Every server is a child process of its own.
 */
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import { type DriverProcess, startDrivers } from './driver-process';
import { RawLoad, replayPlan } from './http-raw-load';
import { startRecorder } from './http-recorder';
import { HttpServerProcess } from './http-servers';
import { HTTP_GROUPS, httpTarget, type Pair } from './impls';
import { profiledInProcess, profileNodeArgs } from './profiling';
import type { Row, Section } from './report';
import { mergeSorted, percentile, summarize } from './stats';
import { CALL_TEXT } from './stdio-throughput';

/** Case name of one HTTP case. */
export const httpCase = (tools: number, group: string, concurrency: number) =>
  `${tools} tools, ${group}, concurrency ${concurrency}`;

interface Contender {
  pair: Pair;
  /** Tools of its server. */
  tools: number;
  server: HttpServerProcess;
  driver: DriverProcess;
  raw?: RawLoad;
  failure?: string;
}

interface Turn {
  perSecond: number;
  latencies: Float64Array;
  cpuMicrosPerCall: number;
}

/** Records what the pair's client sends, then connects it (and a raw generator) for real. */
async function prepare(c: Contender): Promise<void> {
  const recorder = await startRecorder(c.server.url);
  try {
    await c.driver.send('open', { target: httpTarget(c.pair, recorder.url, c.tools) });
    await c.driver.send('run', { inFlight: 1, calls: 1, text: CALL_TEXT });
    await c.driver.send('close');
  } finally {
    await recorder.close();
  }
  c.raw = new RawLoad(c.server.url, replayPlan(recorder.recorded, CALL_TEXT), CALL_TEXT);
  await c.raw.open();
  await c.driver.send('open', { target: httpTarget(c.pair, c.server.url, c.tools) });
}

async function timedTurn(c: Contender, mode: 'raw' | 'client', concurrency: number, ms: number) {
  const before = await c.server.usage();
  let result: { latencies: Float64Array; perSecond: number };
  if (mode === 'raw') {
    const label = `raw ${c.tools} tools, concurrency ${concurrency}`;
    result = await profiledInProcess(c.pair.name, 'http-load', label, () =>
      (c.raw as RawLoad).turn(concurrency, ms),
    );
  } else {
    const answer = await c.driver.send<{ elapsedMs: number; latencies: Float64Array }>('load', {
      inFlight: concurrency,
      durationMs: ms,
      text: CALL_TEXT,
    });
    result = {
      latencies: answer.latencies,
      perSecond: (answer.latencies.length * 1000) / answer.elapsedMs,
    };
  }
  const after = await c.server.usage();
  const calls = Math.max(1, result.latencies.length);
  return {
    ...result,
    cpuMicrosPerCall: ((after.cpuMicros ?? 0) - (before.cpuMicros ?? 0)) / calls,
  };
}

/** One case: the members take alternating turns; a member that fails keeps its failure. */
function runCase(
  members: readonly Contender[],
  mode: 'raw' | 'client',
  concurrency: number,
  config: BenchConfig,
): Promise<Turn[][]> {
  const { turnMs, warmupMs, rounds } = config.http;
  return alternate(members.length, { rounds, warmup: 1 }, async (i, round) => {
    const c = members[i] as Contender;
    const empty = { perSecond: Number.NaN, latencies: new Float64Array(), cpuMicrosPerCall: 0 };
    if (c.failure) return empty;
    try {
      return await timedTurn(c, mode, concurrency, round < 0 ? warmupMs : turnMs);
    } catch (error) {
      c.failure = (error as Error).message;
      return empty;
    }
  });
}

function rowsOf(caseName: string, contenders: readonly Contender[], samples: Turn[][]): Row[] {
  return contenders.map((c, i) => {
    const row: Row = { case: caseName, implementation: c.pair.name, baseline: c.pair.baseline };
    if (c.failure) return { ...row, failure: c.failure };
    const turns = samples[i] ?? [];
    const sorted = mergeSorted(turns.map((t) => t.latencies));
    return {
      ...row,
      value: summarize(turns.map((t) => t.perSecond)),
      extra: {
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        cpu: summarize(turns.map((t) => t.cpuMicrosPerCall)).median,
      },
    };
  });
}

/** Runs every HTTP case; two tables (raw load, own clients). */
export async function runHttpBench(
  config: BenchConfig,
): Promise<{ raw: Section; client: Section }> {
  const pairs = HTTP_GROUPS.flatMap((g) => g.pairs);
  const drivers = await startDrivers(
    pairs.map((p) => ({
      name: `${p.name} (HTTP)`,
      script: p.impl.client,
      nodeArgs: profileNodeArgs(p.name, 'http-client'),
    })),
  );
  const rows = { raw: [] as Row[], client: [] as Row[] };
  const { turnMs, rounds } = config.http;
  try {
    for (const tools of config.http.toolCounts) {
      // Setup is not timed: servers start and clients are recorded all at once.
      const servers = await Promise.allSettled(
        pairs.map((pair) =>
          HttpServerProcess.start(pair.impl, tools, pair.expectEra, {
            serverArgs: pair.serverArgs,
            nodeArgs: profileNodeArgs(pair.name, 'http-server'),
          }),
        ),
      );
      const contenders: Contender[] = [];
      try {
        servers.forEach((started, i) => {
          if (started.status === 'rejected') throw started.reason;
          const driver = drivers[i] as DriverProcess;
          contenders.push({ pair: pairs[i] as Pair, tools, server: started.value, driver });
        });
        await Promise.all(
          contenders.map((c) =>
            prepare(c).catch((error: Error) => {
              c.failure = error.message;
            }),
          ),
        );
        // One unrecorded stretch of load per fresh server, one at a time, so that the first
        // case does not time a cold JIT.
        for (const c of contenders) {
          await c.raw?.turn(16, config.http.serverWarmupMs).catch((error: Error) => {
            c.failure = error.message;
          });
        }
        for (const mode of ['raw', 'client'] as const) {
          for (const group of HTTP_GROUPS) {
            const members = contenders.filter((c) => group.pairs.includes(c.pair));
            for (const concurrency of config.http.concurrency(tools)) {
              const samples = await runCase(members, mode, concurrency, config);
              const name = httpCase(tools, group.label, concurrency);
              rows[mode].push(...rowsOf(name, members, samples));
            }
          }
        }
      } finally {
        for (const c of contenders) {
          await c.driver.send('close').catch(() => {});
          await c.raw?.close();
        }
        for (const started of servers) {
          if (started.status === 'fulfilled') await started.value.close();
        }
      }
    }
  } finally {
    await Promise.all(drivers.map((d) => d.close()));
  }
  const columns = [
    { key: 'p50', header: 'p50 ms' },
    { key: 'p99', header: 'p99 ms', ratio: true },
    { key: 'cpu', header: 'server CPU µs/call', ratio: true },
  ];
  const notes = [
    ...(config.http.note ? [config.http.note] : []),
    `One turn: ${turnMs} ms of \`echo\` calls from that many concurrent workers; ${rounds} recorded turns per implementation, alternating. Server CPU: the server process's user + system CPU during the turn ÷ calls. Legacy rows call within one session opened beforehand; the official SDK 2.4.0 modern server is \`createMcpHandler\` (a fresh server per request, as designed) on \`toNodeHandler\`; _schemas built once_ is the same with everything but that instance and its tool registrations built once, outside the factory (zod schemas and their JSON Schema, tool configurations and callbacks); its legacy server is the documented sessionful wiring.`,
  ];
  return {
    raw: {
      id: 'http-raw',
      title: 'HTTP tools/call, raw load (the exact requests each client sends)',
      unit: 'req/s',
      better: 'higher',
      notes: [
        ...notes,
        "The load generator replays the request recorded from each implementation's own client (headers and body; only the JSON-RPC id and the session id differ), so this compares servers.",
      ],
      columns,
      rows: rows.raw,
    },
    client: {
      id: 'http-client',
      title: "HTTP tools/call through each implementation's own client",
      unit: 'calls/s',
      better: 'higher',
      notes: [...notes, 'Each client (in a process of its own) keeps that many calls in flight.'],
      columns,
      rows: rows.client,
    },
  };
}
