/**
 * McpClient tool calls against a real twofold server, in both eras: progress, timeouts (reset
 * by progress or not), cancellation seen by the server, and output schema checks.
 */
import { LocalError, LocalErrorCode, ProtocolError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { Progress } from '../../src/types';
import {
  connectClient,
  deferred,
  ERAS,
  type Era,
  eventually,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';
import { buildApiServer } from '../support/client-server';

useClientCleanups();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(era: Era) {
  const server = buildApiServer();
  const cancelled = deferred<string>();
  const started = deferred();
  server.registerTool({
    name: 'count',
    inputSchema: { type: 'object', properties: { steps: { type: 'number' } } },
    handler: async (args: { steps: number }, context) => {
      for (let i = 1; i <= args.steps; i++) await context.progress(i, args.steps, `step ${i}`);
      return `counted ${args.steps}`;
    },
  });
  // Reports progress every `gapMs`, `steps` times: slower in all than the timeouts used.
  server.registerTool({
    name: 'slow',
    inputSchema: {
      type: 'object',
      properties: { steps: { type: 'number' }, gapMs: { type: 'number' } },
    },
    handler: async (args: { steps: number; gapMs: number }, context) => {
      for (let i = 1; i <= args.steps && !context.signal.aborted; i++) {
        await sleep(args.gapMs);
        await context.progress(i, args.steps);
      }
      return 'slow done';
    },
  });
  // Never finishes by itself; records the cancellation it sees.
  server.registerTool({
    name: 'hang',
    handler: (_args, context) =>
      new Promise((resolve) => {
        started.resolve();
        context.signal.addEventListener('abort', () => {
          cancelled.resolve(String(context.requestId));
          resolve('cancelled');
        });
      }),
  });
  const served = serveTarget(server);
  const connected = await connectClient(served.target, { era });
  return { server, served, cancelled, started, ...connected };
}

function expectLocal(error: Error, code: LocalErrorCode): void {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(code);
}

describe.each(ERAS)('McpClient calls (%s)', (era) => {
  it('delivers progress to the callback', async () => {
    const { client } = await setup(era);
    const progress: Progress[] = [];
    const result = await client.callTool(
      'count',
      { steps: 3 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'counted 3' }]);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('keeps a call alive while progress arrives (resetTimeoutOnProgress)', async () => {
    const { client } = await setup(era);
    const progress: Progress[] = [];
    const result = await client.callTool(
      'slow',
      { steps: 8, gapMs: 50 },
      // 400 ms in all, past the 300 ms timeout; each gap leaves 250 ms of slack for a busy CI.
      { timeoutMs: 300, resetTimeoutOnProgress: true, onProgress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slow done' }]);
    expect(progress).toHaveLength(8);
  });

  it('times out despite progress without resetTimeoutOnProgress, or past maxTotalTimeoutMs', async () => {
    const { client } = await setup(era);
    const plain = await rejectionOf(
      client.callTool('slow', { steps: 8, gapMs: 40 }, { timeoutMs: 120, onProgress: () => {} }),
    );
    expectLocal(plain, LocalErrorCode.RequestTimeout);
    const capped = await rejectionOf(
      client.callTool(
        'slow',
        { steps: 20, gapMs: 20 },
        {
          timeoutMs: 200,
          resetTimeoutOnProgress: true,
          maxTotalTimeoutMs: 100,
          onProgress: () => {},
        },
      ),
    );
    expectLocal(capped, LocalErrorCode.RequestTimeout);
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('times out with REQUEST_TIMEOUT and the server sees the cancellation', async () => {
    const { client, served, cancelled } = await setup(era);
    const error = await rejectionOf(client.callTool('hang', {}, { timeoutMs: 50 }));
    expectLocal(error, LocalErrorCode.RequestTimeout);
    const call = served.requests('tools/call').at(-1);
    expect(await cancelled.promise).toBe(String(call?.id));
    const cancel = served.received.find(
      (m) => 'method' in m && m.method === 'notifications/cancelled',
    );
    expect(cancel).toMatchObject({ params: { requestId: call?.id } });
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('aborts with REQUEST_ABORTED (the signal reason as cause) and the server sees it', async () => {
    const { client, served, cancelled, started } = await setup(era);
    const controller = new AbortController();
    const pending = client.callTool('hang', {}, { signal: controller.signal });
    await started.promise;
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await rejectionOf(pending);
    expectLocal(error, LocalErrorCode.RequestAborted);
    expect(error.cause).toBe(reason);
    const call = served.requests('tools/call').at(-1);
    expect(await cancelled.promise).toBe(String(call?.id));
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('rejects an already aborted signal without reaching the server', async () => {
    const { client, served } = await setup(era);
    const error = await rejectionOf(
      client.callTool('echo', {}, { signal: AbortSignal.abort(new Error('early')) }),
    );
    expectLocal(error, LocalErrorCode.RequestAborted);
    expect(served.requests('tools/call')).toHaveLength(0);
  });

  it('checks structuredContent against the listed outputSchema (INVALID_RESULT)', async () => {
    const { client, server, notifications } = await setup(era);
    const schema = (key: string) => ({
      type: 'object',
      properties: { [key]: { type: 'number' } },
      required: [key],
    });
    const sum = (key: string) => () => ({ content: [], structuredContent: { [key]: 3 } });
    const old = server.registerTool({
      name: 'sum',
      outputSchema: schema('sum'),
      handler: sum('sum'),
    });
    // Unlisted tools are not checked; listing teaches the client the schema.
    expect((await client.callTool('sum')).structuredContent).toEqual({ sum: 3 });
    await client.listTools();
    expect((await client.callTool('sum')).structuredContent).toEqual({ sum: 3 });

    // The server replaces the tool. A legacy session is told (tools/list_changed), so the
    // client drops the stale schema; a modern client without a listen stream still holds it.
    old.remove();
    server.registerTool({ name: 'sum', outputSchema: schema('total'), handler: sum('total') });
    if (era === 'legacy') {
      const changed = 'notifications/tools/list_changed';
      await eventually(() => notifications.some((n) => n.method === changed));
      expect((await client.callTool('sum')).structuredContent).toEqual({ total: 3 });
    } else {
      const error = await rejectionOf(client.callTool('sum'));
      expectLocal(error, LocalErrorCode.InvalidResult);
      expect((error as LocalError).details).toMatchObject({ tool: 'sum' });
      expect((error as LocalError).details?.errors).toEqual(expect.any(Array));
    }

    const unchecked = await client.callTool('sum', {}, { validateOutput: false });
    expect(unchecked.structuredContent).toEqual({ total: 3 });
    // Listing again learns the new schema.
    await client.listTools({}, { cache: 'refresh' });
    expect((await client.callTool('sum')).structuredContent).toEqual({ total: 3 });
  });

  it('turns a tool error into an isError result, not a rejection', async () => {
    const { client, server } = await setup(era);
    server.registerTool({
      name: 'broken',
      handler: () => {
        throw new Error('kaput');
      },
    });
    const result = await client.callTool('broken');
    expect(result.isError).toBe(true);
    const missing = await rejectionOf(client.callTool('nope'));
    expect(missing).toBeInstanceOf(ProtocolError);
  });
});
