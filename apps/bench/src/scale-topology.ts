/**
 * The scale-out topology on 127.0.0.1: one redis-server, three everything-server replicas sharing
 * it and one request-state key, and one nginx (deploy/nginx/mcp.conf) per replica count, in front
 * of the first one, two or three replicas. Everything starts before any measurement.
 */
import { randomBytes } from 'node:crypto';
import {
  type EverythingProcess,
  startEverything,
} from '../../../config/test-support/everything-server.ts';
import { startNginx, type TestNginx } from '../../../config/test-support/nginx.ts';
import {
  freePort,
  haveBinary,
  startRedis,
  type TestRedis,
} from '../../../config/test-support/redis-server.ts';

/** The most replicas measured (mcp.conf names three). */
export const MAX_REPLICAS = 3;

/** A running topology. */
export interface ScaleTopology {
  /** The replicas, in order; the first is also the one reached directly. */
  replicas: EverythingProcess[];
  /** nginx in front of the first `n` replicas, at index `n - 1`. */
  proxies: TestNginx[];
  /** Stops nginx, the replicas and Redis. */
  close(): Promise<void>;
}

/** Why the scale rows cannot run on this machine (a missing program), or undefined. */
export function scaleUnavailable(): string | undefined {
  const missing = ['nginx', 'redis-server'].filter((name) => !haveBinary(name, 'the scale rows'));
  return missing.length === 0 ? undefined : `${missing.join(' and ')} not found on PATH`;
}

/** The values of `settled`, or the first rejection once all have settled. */
function fulfilled<T>(settled: readonly PromiseSettledResult<T>[], into: T[]): void {
  for (const s of settled) if (s.status === 'fulfilled') into.push(s.value);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Starts Redis, the replicas and the proxies; on a failure, stops what did start. */
export async function startScaleTopology(): Promise<ScaleTopology> {
  let redis: TestRedis | undefined;
  const replicas: EverythingProcess[] = [];
  const proxies: TestNginx[] = [];
  const close = async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.stop();
  };
  try {
    redis = await startRedis();
    const redisUrl = redis.url;
    // A key of this run's own, never printed: a request state one replica issues, any reads.
    const keyHex = randomBytes(32).toString('hex');
    const ports: number[] = [];
    for (let i = 0; i < MAX_REPLICAS; i++) ports.push(await freePort());
    const startReplica = (port: number) =>
      startEverything({
        port,
        redisUrl,
        keyHex,
        // nginx forwards the Host the client named without its port (mcp.conf: Host $host);
        // the direct row names the replica's own.
        allowedHosts: ['127.0.0.1', `127.0.0.1:${port}`],
      });
    fulfilled(await Promise.allSettled(ports.map(startReplica)), replicas);
    const counts = Array.from({ length: MAX_REPLICAS }, (_, i) => i + 1);
    fulfilled(await Promise.allSettled(counts.map((n) => startNginx(ports.slice(0, n)))), proxies);
    // allSettled keeps the order of `counts`: proxies[n - 1] fronts n replicas.
    return { replicas, proxies, close };
  } catch (error) {
    await close();
    throw error;
  }
}
