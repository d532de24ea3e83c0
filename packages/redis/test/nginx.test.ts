/**
 * Three everything-server replicas sharing Redis behind nginx, configured by
 * deploy/nginx/mcp.conf: modern requests spread over the replicas, legacy sessions keep theirs.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EverythingProcess,
  SHARED_KEY_HEX,
  startEverything,
} from '../../../config/test-support/everything-server.ts';
import { startNginx, type TestNginx } from '../../../config/test-support/nginx.ts';
import { freePort, haveBinary } from '../../../config/test-support/redis-server.ts';
import { legacyHandshake, legacyPost, legacyStream } from './support/legacy-http';
import { redisAvailable, useRedis } from './support/redis';

const nginxAvailable = haveBinary('nginx', 'the nginx deployment tests');
const clientInfo = { name: 'nginx-test', version: '1.0.0' };

describe.skipIf(!redisAvailable || !nginxAvailable)('replicas behind nginx', () => {
  const redis = useRedis();
  let replicas: EverythingProcess[] = [];
  let nginx: TestNginx;
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
        }),
      ),
    );
    nginx = await startNginx(ports);
  }, 120_000);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  const modernClient = () =>
    McpClient.connect(httpServer({ url: nginx.url }), {
      clientInfo,
      era: 'modern',
      handlers: { elicitation: async () => ({ action: 'accept', content: {} }) },
    });

  /** The replicas that answered the requests proxied since `from` (an index into the log). */
  const upstreamsSince = (from: number) => new Set(nginx.upstreams().slice(from));

  it('answers input-required rounds whose retries land on other replicas', async () => {
    const from = nginx.upstreams().length;
    const client = await modernClient();
    const tool = 'test_input_required_result_multi_round';
    const manual = { inputMode: 'manual' } as const;
    const first = await client.callTool(tool, {}, manual);
    const stateOf = (result: object) =>
      'requestState' in result ? String(result.requestState) : '';
    const second = await client.callTool(
      tool,
      {},
      {
        ...manual,
        inputResponses: { step1: { action: 'accept', content: { name: 'Ada' } } },
        requestState: stateOf(first),
      },
    );
    const done = await client.callTool(
      tool,
      {},
      {
        inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
        requestState: stateOf(second),
      },
    );
    expect(done.content).toEqual([{ type: 'text', text: 'Favorite color: blue' }]);
    expect(upstreamsSince(from).size).toBe(3);
    await client.close();
  });

  it('a listen hears a change made through another replica', async () => {
    const client = await modernClient();
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const listenOn = nginx.upstreams().at(-1);
    // Round-robin: the next requests go to the other replicas first.
    await client.callTool('test_trigger_tool_change');
    expect(nginx.upstreams().at(-1)).not.toBe(listenOn);
    expect((await stream[Symbol.asyncIterator]().next()).value).toEqual({
      type: 'toolsListChanged',
    });
    await stream.close();
    await client.close();
  });

  it('keeps a legacy session on its replica and resumes its dropped stream', async () => {
    const from = nginx.upstreams().length;
    const sessionId = await legacyHandshake(nginx.url);
    const first = await legacyStream(nginx.url, sessionId);
    const primingId = await first.untilEventId();
    await first.drop();
    const call = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call' };
    const params = { name: 'test_trigger_tool_change', arguments: {} };
    const called = await legacyPost(nginx.url, { ...call, params }, sessionId);
    expect(called.status).toBe(200);
    await called.text();

    const resumed = await legacyStream(nginx.url, sessionId, primingId);
    expect((await resumed.next())?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    await resumed.drop();
    expect(upstreamsSince(from).size).toBe(1);
  });

  it('survives a killed replica: modern retries succeed, its legacy sessions start again', async () => {
    const sessionId = await legacyHandshake(nginx.url);
    // The replica that answered the handshake holds every legacy session.
    const holder = replicas.find((r) => nginx.upstreams().at(-1) === r.url.host);
    expect(holder).toBeDefined();
    const client = await modernClient();
    await holder?.stop('SIGKILL');

    for (let i = 0; i < 6; i++) {
      const result = await client.callTool('echo', { message: `m${i}` });
      expect(result.isError ?? false).toBe(false);
    }
    const list = { jsonrpc: '2.0' as const, id: 2, method: 'tools/list' };
    const lost = await legacyPost(nginx.url, list, sessionId);
    expect(lost.status).toBe(404);
    await lost.text();
    const again = await legacyHandshake(nginx.url);
    const listed = await legacyPost(nginx.url, list, again);
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('test_trigger_tool_change');
    await client.close();
  });
});
