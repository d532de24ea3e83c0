/**
 * Raw HTTP load: the load generator (undici, in the benchmark's process) replays the exact
 * `tools/call` a client sent, as recorded, with only the JSON-RPC id made unique per request
 * (and, for a legacy session, the session id of the generator's own session). Same generator,
 * same bytes per implementation: what differs is the server.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { RecordedRequest } from './http-recorder';

const ID_MARK = '__BENCH_ID__';
const SESSION = 'mcp-session-id';

/** What to replay: the session opening (legacy) and the call. */
export interface ReplayPlan {
  opening: RecordedRequest[];
  call: RecordedRequest;
}

const methodOf = (r: RecordedRequest): string | undefined => {
  try {
    return (JSON.parse(r.body) as { method?: string }).method;
  } catch {
    return undefined;
  }
};

/** Picks the call carrying `text` (and its session's opening) out of a recording. */
export function replayPlan(recorded: readonly RecordedRequest[], text: string): ReplayPlan {
  const call = [...recorded]
    .reverse()
    .find((r) => r.method === 'POST' && methodOf(r) === 'tools/call' && r.body.includes(text));
  if (!call) throw new Error('raw load: the client sent no recorded tools/call');
  const opening =
    call.headers[SESSION] === undefined
      ? []
      : recorded.filter((r) =>
          ['initialize', 'notifications/initialized'].includes(methodOf(r) ?? ''),
        );
  return { opening, call };
}

/** One turn's result: requests per second and every latency in ms. */
export interface RawTurn {
  perSecond: number;
  latencies: Float64Array;
}

/** A load generator for one endpoint and plan. */
export class RawLoad {
  private readonly origin: string;
  private readonly pools = new Map<number, Pool>();
  private readonly prefix: string;
  private readonly suffix: string;
  private headers: Record<string, string>;
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly plan: ReplayPlan,
    private readonly expect: string,
  ) {
    this.origin = new URL(url).origin;
    const message = JSON.parse(plan.call.body) as Record<string, unknown>;
    [this.prefix, this.suffix] = JSON.stringify({ ...message, id: ID_MARK }).split(
      `"${ID_MARK}"`,
    ) as [string, string];
    this.headers = { ...plan.call.headers };
  }

  private pool(connections: number): Pool {
    let pool = this.pools.get(connections);
    if (!pool) {
      pool = new Pool(this.origin, { connections });
      this.pools.set(connections, pool);
    }
    return pool;
  }

  /** Opens the generator's own session when the plan has one (legacy). */
  async open(): Promise<void> {
    let session: string | undefined;
    for (const r of this.plan.opening) {
      const { [SESSION]: _recorded, ...headers } = r.headers;
      if (session) headers[SESSION] = session;
      const answer = await this.pool(1).request({
        method: 'POST',
        path: r.path,
        headers,
        body: r.body,
      });
      await answer.body.text();
      const got = answer.headers[SESSION];
      if (typeof got === 'string') session = got;
    }
    if (this.plan.opening.length > 0) {
      if (!session) throw new Error('raw load: no session id in the answer to initialize');
      this.headers = { ...this.headers, [SESSION]: session };
    }
  }

  private async post(pool: Pool): Promise<void> {
    const answer = await pool.request({
      method: 'POST',
      path: this.plan.call.path,
      headers: this.headers,
      body: `${this.prefix}${this.nextId++}${this.suffix}`,
    });
    const body = await answer.body.text();
    if (answer.statusCode !== 200 || !body.includes(this.expect)) {
      throw new Error(`raw load: HTTP ${answer.statusCode} ${body.slice(0, 160)}`);
    }
  }

  /**
   * `concurrency` workers post for `durationMs`, or until `maxRequests` are sent if that comes
   * first, each waiting for its answer.
   */
  async turn(
    concurrency: number,
    durationMs: number,
    maxRequests = Number.POSITIVE_INFINITY,
  ): Promise<RawTurn> {
    const pool = this.pool(concurrency);
    const latencies: number[] = [];
    const deadline = performance.now() + durationMs;
    let started = 0;
    const worker = async () => {
      while (performance.now() < deadline && started < maxRequests) {
        started++;
        const sent = performance.now();
        await this.post(pool);
        latencies.push(performance.now() - sent);
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = performance.now() - start;
    return {
      perSecond: (latencies.length * 1000) / elapsed,
      latencies: Float64Array.from(latencies),
    };
  }

  /** Ends the session (DELETE, as clients do) and the connections. */
  async close(): Promise<void> {
    const session = this.headers[SESSION];
    if (session) {
      await this.pool(1)
        .request({ method: 'DELETE', path: new URL(this.url).pathname, headers: this.headers })
        .then((a) => a.body.text())
        .catch(() => {});
    }
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
