/**
 * Failures behind nginx (deploy/nginx/mcp.conf): Redis restarted while replicas use it, and a
 * replica killed while clients keep calling. Modern calls go on; legacy sessions of the killed
 * replica are renewed by their clients on a live one.
 */
import type { ClientWarning, McpClient } from '@twofold/client/experimental';
import { describe, expect, it } from 'vitest';
import type { EverythingProcess } from '../../../config/test-support/everything-server.ts';
import { nginxAvailable, UpstreamRecord, useReplicasBehindNginx } from './support/nginx-replicas';
import { redisAvailable, untilSubscribers } from './support/redis';

/** What the replicas' change buses subscribe to (RedisChangeBus's default channel). */
const BUS_CHANNEL = 'twofold:changes';
const WORKERS = 8;
const CALLS_PER_WORKER = 30;
/** The replica dies once this many calls are done: the rest run without it. */
const KILL_AFTER = 40;

describe.skipIf(!redisAvailable || !nginxAvailable)('failures behind nginx', () => {
  const fleet = useReplicasBehindNginx();

  it('goes on after Redis restarts: listens hear other replicas, rounds pass once', async () => {
    const confirm = async () => ({ action: 'accept' as const, content: { ok: true } });
    const client = await fleet.client({ handlers: { elicitation: confirm } });
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    const changes = stream[Symbol.asyncIterator]();

    await fleet.redis.server.restart();
    await untilSubscribers(fleet.redis.client(), BUS_CHANNEL, fleet.replicas.length);
    await client.callTool('test_trigger_tool_change');
    expect((await changes.next()).value).toEqual({ type: 'toolsListChanged' });
    // The replay guard is in the restarted Redis: a round's requestState still works once.
    const done = await client.callTool('test_input_required_result_request_state');
    expect(done.content).toEqual([{ type: 'text', text: 'state-ok: confirmed=true' }]);
    await stream.close();
    await client.close();
  });

  it('survives a replica killed under load: modern calls succeed, its legacy sessions renew', async () => {
    // Legacy sessions first; a session's requests all go to the replica holding it.
    const legacy: { client: McpClient; holder: string | undefined; warnings: ClientWarning[] }[] =
      [];
    for (let i = 0; i < 6; i++) {
      const record = new UpstreamRecord();
      const warnings: ClientWarning[] = [];
      const onWarning = (w: ClientWarning) => warnings.push(w);
      const client = await fleet.client({ era: 'legacy', onWarning }, record);
      const holders = new Set(record.upstreams());
      expect(holders.size).toBe(1);
      legacy.push({ client, holder: [...holders][0], warnings });
    }
    const victim = fleet.replicaAt(legacy[0]?.holder);
    if (victim === undefined) throw new Error('the first legacy session names no replica');

    const modern = await Promise.all([fleet.client(), fleet.client()]);
    const everyClient = [...modern, ...legacy.map((l) => l.client)];
    try {
      // Listed, so the clients know `echo` only reads: a call lost with the replica may go again.
      for (const client of modern) await client.listTools();
      await loadThroughKill(modern, victim);
      for (const { client, holder, warnings } of legacy) {
        const result = await client.callTool('echo', { message: 'after' });
        expect(result.content).toEqual([{ type: 'text', text: 'after' }]);
        const renewed = warnings.some((w) => w.code === 'session-renewed');
        expect(renewed).toBe(holder === victim.url.host);
      }
    } finally {
      await Promise.all(everyClient.map((client) => client.close()));
    }
  });
});

/** Calls from every worker until all are done; the victim is killed on the way. */
async function loadThroughKill(clients: McpClient[], victim: EverythingProcess): Promise<void> {
  const failures: unknown[] = [];
  let done = 0;
  let killed: Promise<void> | undefined;
  const work = async (client: McpClient, worker: number) => {
    for (let i = 0; i < CALLS_PER_WORKER; i++) {
      const message = `w${worker}-${i}`;
      try {
        const result = await client.callTool('echo', { message });
        expect(result.content).toEqual([{ type: 'text', text: message }]);
      } catch (error) {
        failures.push(error);
      }
      if (++done === KILL_AFTER) killed = victim.stop('SIGKILL');
    }
  };
  await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => work(clients[w % clients.length] as McpClient, w)),
  );
  await killed;
  expect(victim.child.signalCode).toBe('SIGKILL');
  expect(failures).toEqual([]);
  expect(done).toBe(WORKERS * CALLS_PER_WORKER);
}
