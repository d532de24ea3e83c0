/**
 * Modern HTTP `tools/call` on a 50-tool server: twofold's `createServerHttpHandler` against the
 * official SDK 2.4.0's `createMcpHandler`, both mounted with the same `node:http` adapter
 * (`serve` from `@twofold/transports/node`; the official SDK has no 2.4.0 Node adapter) and
 * driven by the same raw undici load on loopback.
 */
import { performance } from 'node:perf_hooks';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServerHttpHandler } from '@twofold/server/http';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { Pool } from 'undici';
import {
  createOfficialServer,
  createTwofoldServer,
  EXPECTED_TEXT,
  httpRequest,
} from './server-fixtures';
import { type LoadResult, summarize } from './server-stats';

interface Target {
  name: string;
  endpoint: ServedEndpoint;
  pool: Pool;
}

async function startTargets(): Promise<Target[]> {
  const twofold = await serve(createServerHttpHandler(createTwofoldServer()));
  const official = createMcpHandler(() => createOfficialServer(), { legacy: 'reject' });
  const officialEndpoint = await serve(official.fetch);
  return [
    { name: 'twofold', endpoint: twofold },
    { name: 'official SDK 2.4.0', endpoint: officialEndpoint },
  ].map((t) => ({ ...t, pool: new Pool(t.endpoint.url.origin, { connections: 16 }) }));
}

/** One `tools/call`; returns the body so a wrong answer is caught rather than timed. */
async function post(target: Target): Promise<string> {
  const response = await target.pool.request({
    method: 'POST',
    path: target.endpoint.url.pathname,
    headers: httpRequest.headers,
    body: httpRequest.body,
  });
  const body = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${target.name}: HTTP ${response.statusCode}`);
  return body;
}

/** `count` requests from `concurrency` workers; req/s and every latency in ms. */
async function load(target: Target, count: number, concurrency: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next++ < count) {
      const start = performance.now();
      await post(target);
      latencies.push(performance.now() - start);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: (count * 1000) / (performance.now() - start), latencies };
}

export interface HttpBenchOptions {
  rounds: number;
  /** Requests per turn, by concurrency. */
  counts: Record<number, number>;
}

/** Runs both servers in alternation at each concurrency; Markdown rows of the result table. */
export async function benchHttp(options: HttpBenchOptions): Promise<string[]> {
  const targets = await startTargets();
  try {
    for (const target of targets) {
      const body = await post(target);
      if (!body.includes(EXPECTED_TEXT)) throw new Error(`${target.name}: wrong answer ${body}`);
    }
    const rows: string[] = [];
    for (const [concurrency, count] of Object.entries(options.counts).map(
      ([c, n]) => [Number(c), n] as const,
    )) {
      for (const target of targets) await load(target, Math.min(count, 200), concurrency);
      const results = targets.map(() => [] as LoadResult[]);
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order)
          results[i]?.push(await load(targets[i] as Target, count, concurrency));
      }
      rows.push(
        ...summarize(`HTTP tools/call, 50 tools, concurrency ${concurrency}`, targets, results),
      );
    }
    return rows;
  } finally {
    for (const target of targets) {
      await target.pool.close();
      await target.endpoint.close();
    }
  }
}
