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
    /** How many requests nginx proxied so far (a mark for `upstreamsSince`). */
    mark: () => running().upstreams().length,
    /** The replica addresses (host:port) that answered the requests proxied since `mark`. */
    upstreamsSince: (mark: number) => running().upstreams().slice(mark),
    /** The replica whose address is `address`. */
    replicaAt: (address: string | undefined) => replicas.find((r) => r.url.host === address),
    /** A twofold client through nginx; closed by the caller. */
    client: (options: Partial<McpClientOptions> = {}) =>
      McpClient.connect(httpServer({ url: running().url }), {
        clientInfo,
        era: 'modern',
        handlers: { elicitation: async () => ({ action: 'accept', content: {} }) },
        ...options,
      }),
  };
}
