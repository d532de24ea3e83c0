/**
 * The everything server as replicas: `--redis` puts every store in Redis and
 * `TWOFOLD_REQUEST_STATE_KEY` gives each process the same key, so a client may land anywhere.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EverythingProcess,
  runEverything,
  SHARED_KEY_HEX,
  startEverything,
} from '../../../config/test-support/everything-server.ts';
import { redisAvailable, useRedis } from './support/redis';

const clientInfo = { name: 'everything-replicas-test', version: '1.0.0' };
const elicitation = { elicitation: async () => ({ action: 'accept' as const, content: {} }) };

async function modernClient(url: URL) {
  return McpClient.connect(httpServer({ url }), {
    clientInfo,
    era: 'modern',
    handlers: elicitation,
  });
}

describe.skipIf(!redisAvailable)('everything servers sharing Redis', () => {
  const redis = useRedis();
  let a: EverythingProcess;
  let b: EverythingProcess;
  // Starting replicas from source on a busy CI machine takes a while: the timeout bounds a hang.
  beforeAll(async () => {
    const options = { redisUrl: redis.server.url, keyHex: SHARED_KEY_HEX };
    [a, b] = await Promise.all([startEverything(options), startEverything(options)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('takes each round of a multi-round tool on a different replica', async () => {
    const [onA, onB] = await Promise.all([modernClient(a.url), modernClient(b.url)]);
    const tool = 'test_input_required_result_multi_round';
    const manual = { inputMode: 'manual' } as const;
    const first = await onA.callTool(tool, {}, manual);
    const answer = (key: string, content: Record<string, string>) => ({
      inputResponses: { [key]: { action: 'accept', content } },
      requestState: 'requestState' in first ? String(first.requestState) : '',
    });
    const second = await onB.callTool(tool, {}, { ...manual, ...answer('step1', { name: 'Ada' }) });
    expect(second.resultType).toBe('input_required');
    const state = 'requestState' in second ? String(second.requestState) : '';
    const done = await onA.callTool(
      tool,
      {},
      {
        inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
        requestState: state,
      },
    );
    expect(done.content).toEqual([{ type: 'text', text: 'Favorite color: blue' }]);
    await Promise.all([onA.close(), onB.close()]);
  });

  it('a listen on one replica hears a tool change made through the other', async () => {
    const [onA, onB] = await Promise.all([modernClient(a.url), modernClient(b.url)]);
    const stream = onA.listen({ toolsListChanged: true });
    await stream.acknowledged;
    await onB.callTool('test_trigger_tool_change');
    expect((await stream[Symbol.asyncIterator]().next()).value).toEqual({
      type: 'toolsListChanged',
    });
    await stream.close();
    await Promise.all([onA.close(), onB.close()]);
  });

  it('says on stderr that a key was not configured, and only then', async () => {
    expect(a.stderr()).not.toContain('requestState.key is not set');
    const unkeyed = await startEverything({ redisUrl: redis.server.url });
    try {
      // The warning is written before the endpoint says where it listens.
      expect(unkeyed.stderr()).toContain('requestState.key is not set');
    } finally {
      await unkeyed.stop();
    }
  });

  it('refuses a malformed key without printing it', async () => {
    const secret = 'not-hex-but-secret';
    const { code, stderr } = await runEverything(['--http'], secret);
    expect(code).toBe(64);
    expect(stderr).toContain('TWOFOLD_REQUEST_STATE_KEY must be at least 32 bytes');
    expect(stderr).not.toContain(secret);
  });
});
