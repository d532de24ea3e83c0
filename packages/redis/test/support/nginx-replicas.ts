/**
 * Three everything-server replicas sharing one Redis behind nginx, run with
 * deploy/nginx/mcp.conf, for a test file: started in `beforeAll`, stopped after.
 */
import { McpClient, type McpClientOptions } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { afterAll, beforeAll } from 'vitest';
import {
  type EverythingProcess,
  SHARED_KEY_HEX,
  startEverything,
} from '../../../../config/test-support/everything-server.ts';
import { startNginx, type TestNginx } from '../../../../config/test-support/nginx.ts';
import { freePort, haveBinary } from '../../../../config/test-support/redis-server.ts';
import { useRedis } from './redis';

export const nginxAvailable = haveBinary('nginx', 'the nginx deployment tests');

/** The header mcp.conf names a new legacy session's id in. */
export const SESSION_ID_HEADER = 'X-New-Session-Id';

const clientInfo = { name: 'nginx-test', version: '1.0.0' };

/**
 * Which replica answered each request sent through it, from the X-Upstream header the test
 * nginx adds: known as soon as the answer's headers arrive, unlike nginx's access log.
 */
export class UpstreamRecord {
  private readonly answers: { method: string; upstream: string }[] = [];

  /** A fetch that records; give it to a client (`fleet.client`) or to the legacy helpers. */
  readonly fetch = async (
    url: URL | string,
    init: RequestInit & { headers?: Record<string, string> } = {},
  ): Promise<Response> => {
    const response = await fetch(url, init);
    const header = Object.entries(init.headers ?? {}).find(
      ([name]) => name.toLowerCase() === 'mcp-method',
    );
    const upstream = response.headers.get('x-upstream') ?? 'no X-Upstream header';
    this.answers.push({ method: header?.[1] ?? init.method ?? 'GET', upstream });
    return response;
  };

  /** The replicas (host:port) that answered, in order; only those for `method` when given. */
  upstreams(method?: string): string[] {
    return this.answers
      .filter((answer) => method === undefined || answer.method === method)
      .map((answer) => answer.upstream);
  }

  /** The replica that answered the latest `method` request. */
  lastFor(method: string): string | undefined {
    return this.upstreams(method).at(-1);
  }
}

/** Starts the replicas and nginx for the calling file; the returned getters work in tests. */
export function useReplicasBehindNginx() {
  const redis = useRedis();
  let replicas: EverythingProcess[] = [];
  let nginx: TestNginx | undefined;
  // Starting replicas from source on a busy CI machine takes a while: the timeout bounds a hang.
  beforeAll(async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    replicas = await Promise.all(
      ports.map((port) =>
        startEverything({
          port,
          redisUrl: redis.server.url,
          keyHex: SHARED_KEY_HEX,
          // What nginx forwards: the Host the client named (mcp.conf: Host $host).
          allowedHosts: ['127.0.0.1'],
          sessionIdHeader: SESSION_ID_HEADER,
        }),
      ),
    );
    nginx = await startNginx(ports);
  }, 120_000);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  const running = (): TestNginx => {
    if (nginx === undefined) throw new Error('nginx is not running');
    return nginx;
  };
  return {
    redis,
    get replicas() {
      return replicas;
    },
    get url() {
      return running().url;
    },
    /** The replica whose address is `address`. */
    replicaAt: (address: string | undefined) => replicas.find((r) => r.url.host === address),
    /** A twofold client through nginx, its answers in `record` when given; closed by the caller. */
    client: (options: Partial<McpClientOptions> = {}, record?: UpstreamRecord) =>
      McpClient.connect(httpServer({ url: running().url, fetch: record?.fetch }), {
        clientInfo,
        era: 'modern',
        handlers: { elicitation: async () => ({ action: 'accept', content: {} }) },
        ...options,
      }),
  };
}
