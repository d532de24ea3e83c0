/**
 * Three everything-server replicas sharing Redis behind nginx, configured by
 * deploy/nginx/mcp.conf: modern requests spread over the replicas, legacy sessions keep theirs.
 */
import { describe, expect, it } from 'vitest';
import { legacyHandshake, legacyPost, legacyStream } from './support/legacy-http';
import { nginxAvailable, UpstreamRecord, useReplicasBehindNginx } from './support/nginx-replicas';
import { redisAvailable } from './support/redis';

describe.skipIf(!redisAvailable || !nginxAvailable)('replicas behind nginx', () => {
  const fleet = useReplicasBehindNginx();
  const list = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/list' });

  it('answers input-required rounds whose retries land on other replicas', async () => {
    const record = new UpstreamRecord();
    const client = await fleet.client({}, record);
    const tool = 'test_input_required_result_multi_round';
    const manual = { inputMode: 'manual' } as const;
    const stateOf = (result: object) =>
      'requestState' in result ? String(result.requestState) : '';
    const first = await client.callTool(tool, {}, manual);
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
    expect(new Set(record.upstreams('tools/call')).size).toBe(3);
    await client.close();
  });

  it('a listen hears a change made through another replica', async () => {
    const record = new UpstreamRecord();
    const client = await fleet.client({}, record);
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    // Round-robin: the next requests go to the other replicas first.
    await client.callTool('test_trigger_tool_change');
    const listenOn = record.lastFor('subscriptions/listen');
    expect(listenOn).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(record.lastFor('tools/call')).not.toBe(listenOn);
    expect((await stream[Symbol.asyncIterator]().next()).value).toEqual({
      type: 'toolsListChanged',
    });
    await stream.close();
    await client.close();
  });

  it('keeps a legacy session on its replica and resumes its dropped stream', async () => {
    const record = new UpstreamRecord();
    const sessionId = await legacyHandshake(fleet.url, record.fetch);
    const first = await legacyStream(fleet.url, sessionId, undefined, record.fetch);
    const primingId = await first.untilEventId();
    await first.drop();
    const call = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call' };
    const params = { name: 'test_trigger_tool_change', arguments: {} };
    const called = await legacyPost(fleet.url, { ...call, params }, sessionId, record.fetch);
    expect(called.status).toBe(200);
    await called.text();

    const resumed = await legacyStream(fleet.url, sessionId, primingId, record.fetch);
    expect((await resumed.next())?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    await resumed.drop();
    expect(record.upstreams()).toHaveLength(5);
    expect(new Set(record.upstreams()).size).toBe(1);
  });

  it('spreads legacy sessions over the replicas by a hash of the id nginx chose', async () => {
    const holders = new Set<string>();
    // With 16 random ids the chance that all hash to one of three replicas is below 1e-5.
    for (let i = 0; i < 16; i++) {
      const record = new UpstreamRecord();
      const sessionId = await legacyHandshake(fleet.url, record.fetch);
      // nginx's $request_id: 16 random bytes in hex, adopted by the replica.
      expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
      const listed = await legacyPost(fleet.url, list(i + 1), sessionId, record.fetch);
      expect(listed.status).toBe(200);
      await listed.text();
      const answeredBy = new Set(record.upstreams());
      expect(answeredBy.size).toBe(1);
      for (const address of answeredBy) holders.add(address);
    }
    expect(holders.size).toBeGreaterThan(1);
  });

  it('a task created on one replica is polled and cancelled through others', async () => {
    const record = new UpstreamRecord();
    const client = await fleet.client({}, record);
    const { task } = await client.startToolTask('slow_compute', { seconds: 3600 });
    if (task === undefined) throw new Error('the call did not become a task');

    const polled = await client.resumeToolTask(task.taskId);
    expect(polled.state.status).toBe('working');
    await polled.cancel();
    const createdOn = record.lastFor('tools/call');
    const polledOn = record.lastFor('tasks/get');
    const cancelledOn = record.lastFor('tasks/cancel');
    expect(createdOn).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(polledOn).not.toBe(createdOn);
    expect(cancelledOn).not.toBe(createdOn);
    expect((await client.resumeToolTask(task.taskId)).state.status).toBe('cancelled');
    await client.close();
  });
});
