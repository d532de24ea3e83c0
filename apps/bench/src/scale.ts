/**
 * Scale-out: twofold's everything server (`--redis`, one request-state key) as 1, 2 and 3
 * replicas behind nginx (deploy/nginx/mcp.conf), beside one replica reached directly, under the
 * same modern `tools/call` load; every figure also as a ratio to the direct replica's.
 *
 * The load is the raw generator of the HTTP rows (`http-raw-load.ts`), replaying the request
 * twofold's own client sends: it is the cheapest client in CPU, and the load generator shares the
 * machine's cores with the replicas, nginx and Redis, so a heavier client would cap every row.
 */
import { cpus } from 'node:os';
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { alternate } from './alternate';
import type { ScaleConfig } from './config';
import { RawLoad, type RawTurn, type ReplayPlan, replayPlan } from './http-raw-load';
import { startRecorder } from './http-recorder';
import { formatNumber } from './report';
import { type ScaleTopology, scaleUnavailable, startScaleTopology } from './scale-topology';
import { mergeSorted, percentile, type Stat, summarize } from './stats';

/** The title of the scale section in the report. */
export const SCALE_TITLE =
  'Scale-out: the everything server as 1, 2 and 3 replicas behind nginx, beside one replica reached directly (modern tools/call)';

/** The `echo` tool's message: every answer must carry it back. */
const SCALE_TEXT = 'scaled-out echo';

/** The direct row's name: the denominator of every ratio. */
export const DIRECT = '1 replica, direct';

/** Row name of `n` replicas behind nginx. */
export const behindNginx = (n: number) => `${n} replica${n === 1 ? '' : 's'} behind nginx`;

/** One configuration's figures; a failed one has only its failure. */
export interface ScaleRow {
  configuration: string;
  /** Requests per second per repetition. */
  perSecond?: Stat;
  /** p99 latency in ms per repetition. */
  p99?: Stat;
  /** Each repetition's requests per second ÷ the direct row's in the same repetition. */
  perSecondRatio?: Stat;
  /** Each repetition's p99 ÷ the direct row's in the same repetition. */
  p99Ratio?: Stat;
  /** Replicas that answered (nginx's access log); 1 for the direct row. */
  answering?: number;
  failure?: string;
}

/** The scale section: its rows and Markdown, or why it was skipped (then no rows). */
export interface ScaleResult {
  rows: ScaleRow[];
  markdown: string;
  skipped?: string;
}

interface Contender {
  name: string;
  load: RawLoad;
  answering: () => number;
  failure?: string;
}

/** Records the `tools/call` twofold's client sends (modern era) to `url`. */
async function recordCall(url: string): Promise<ReplayPlan> {
  const recorder = await startRecorder(url);
  try {
    const server = httpServer({ url: recorder.url });
    const clientInfo = { name: 'bench-scale', version: '1.0.0' };
    const client = await McpClient.connect(server, { clientInfo, era: 'modern', cache: false });
    try {
      await client.callTool('echo', { message: SCALE_TEXT });
    } finally {
      await client.close();
    }
  } finally {
    await recorder.close();
  }
  return replayPlan(recorder.recorded, SCALE_TEXT);
}

/** The direct replica (at `directUrl`) first, then nginx in front of one, two and three. */
function contenders(directUrl: string, topology: ScaleTopology, plan: ReplayPlan): Contender[] {
  return [
    { name: DIRECT, load: new RawLoad(directUrl, plan, SCALE_TEXT), answering: () => 1 },
    ...topology.proxies.map((proxy, i) => ({
      name: behindNginx(i + 1),
      load: new RawLoad(proxy.url.href, plan, SCALE_TEXT),
      answering: () => new Set(proxy.upstreams()).size,
    })),
  ];
}

const p99Of = (turn: RawTurn) => percentile(mergeSorted([turn.latencies]), 99);

/** The summary of `values`, or undefined when there are none. */
const statOf = (values: readonly number[]) => (values.length > 0 ? summarize(values) : undefined);

/** Each recorded repetition's `figure` ÷ the baseline's in the same repetition. */
function pairedRatios(
  mine: readonly (RawTurn | undefined)[],
  base: readonly (RawTurn | undefined)[],
  figure: (turn: RawTurn) => number,
): Stat | undefined {
  const ratios = mine.flatMap((turn, round) => {
    const against = base[round];
    return turn && against ? [figure(turn) / figure(against)] : [];
  });
  return statOf(ratios);
}

function rowsOf(all: readonly Contender[], samples: (RawTurn | undefined)[][]): ScaleRow[] {
  const base = samples[0] ?? [];
  return all.map((c, i) => {
    if (c.failure) return { configuration: c.name, failure: c.failure };
    const turns = samples[i] ?? [];
    const recorded = turns.filter((t): t is RawTurn => t !== undefined);
    return {
      configuration: c.name,
      perSecond: statOf(recorded.map((t) => t.perSecond)),
      p99: statOf(recorded.map(p99Of)),
      perSecondRatio: pairedRatios(turns, base, (t) => t.perSecond),
      p99Ratio: pairedRatios(turns, base, p99Of),
      answering: c.answering(),
    };
  });
}

const range = (stat: Stat | undefined, format: (n: number) => string) =>
  stat ? `${format(stat.min)}–${format(stat.max)}` : '–';
const median = (stat: Stat | undefined, format: (n: number) => string) =>
  stat ? format(stat.median) : '–';
const times = (n: number) => `${n.toFixed(2)}×`;

/** The section's Markdown: what was measured, how to read it, and the table. */
function render(rows: readonly ScaleRow[], config: ScaleConfig): string {
  const lines = [
    `Modern \`tools/call\` of the everything server's \`echo\` tool, replayed by the raw load generator (the request twofold's client sends, recorded once): ${config.requests} requests per configuration and repetition, ${config.concurrency} in flight; repetitions: ${config.repetitions} recorded after ${config.warmup} unrecorded, the configurations alternating within each (order reversed every other one).`,
    '',
    'Replicas: `everything-server --http --redis` sharing one redis-server and one `TWOFOLD_REQUEST_STATE_KEY`. nginx runs deploy/nginx/mcp.conf (one worker process) with only its ports replaced and the `server` lines of absent replicas dropped; modern requests carry `Mcp-Method`, so it round-robins them.',
    '',
    `Ratios are each repetition's figure ÷ the direct replica's in the same repetition (median, min–max): a req/s ratio above 1 or a p99 ratio below 1 is better than one replica without nginx. On this ${cpus().length}-core machine the replicas, nginx, Redis and the load generator share the cores, so the ratios show what nginx costs and how far more replicas help here, not how a deployment with a core per replica scales (see README.md).`,
    '',
    '| configuration | req/s (median) | min–max | p99 ms (median) | p99 min–max | req/s ÷ direct | min–max | p99 ÷ direct | min–max | replicas answering |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const figures = row.failure
      ? [`**failed**: ${row.failure}`, ...Array.from({ length: 8 }, () => '–')]
      : [
          median(row.perSecond, formatNumber),
          range(row.perSecond, formatNumber),
          median(row.p99, formatNumber),
          range(row.p99, formatNumber),
          median(row.perSecondRatio, times),
          range(row.perSecondRatio, times),
          median(row.p99Ratio, times),
          range(row.p99Ratio, times),
        ];
    const name = row.configuration === DIRECT ? `**${DIRECT}**` : row.configuration;
    lines.push(`| ${[name, ...figures, formatNumber(row.answering)].join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Runs the scale section, or says why it cannot run here (nginx or redis-server missing). */
export async function runScaleBench(config: ScaleConfig): Promise<ScaleResult> {
  const skipped = scaleUnavailable();
  if (skipped) {
    console.error(`bench: scale skipped: ${skipped}`);
    return { rows: [], markdown: `**Skipped**: ${skipped}.`, skipped };
  }
  const topology = await startScaleTopology();
  let all: Contender[] = [];
  try {
    const directUrl = topology.replicas[0]?.url.href;
    if (!directUrl) throw new Error('scale: no replica started');
    all = contenders(directUrl, topology, await recordCall(directUrl));
    await Promise.all(all.map((c) => c.load.open()));
    const { repetitions: rounds, warmup, requests, concurrency } = config;
    // Bounded by the request count, not by time: every configuration serves the same work.
    const samples = await alternate(all.length, { rounds, warmup }, async (i) => {
      const c = all[i] as Contender;
      if (c.failure) return undefined;
      try {
        return await c.load.turn(concurrency, Number.POSITIVE_INFINITY, requests);
      } catch (error) {
        c.failure = (error as Error).message;
        return undefined;
      }
    });
    const rows = rowsOf(all, samples);
    return { rows, markdown: render(rows, config) };
  } finally {
    await Promise.all(all.map((c) => c.load.close()));
    await topology.close();
  }
}
