/**
 * The stdio direction: an HTTP server (modern, or pinned legacy) exposed on a pair of streams
 * by `startStdioBridge`, reached by twofold's `McpClient` (modern and legacy) over those
 * streams, as a host that spawns processes would. Input rounds, progress, list changes and
 * trace context cross; the bridge ends when the host closes its input.
 */
import { PassThrough } from 'node:stream';
import { McpClient, type ServerTarget } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { StdioServerTransport } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import { startStdioBridge } from '../../src/bridge/index';
import {
  BRIDGE_TIMEOUT,
  COMBINATIONS,
  closeAfterTest,
  type Era,
  textOf,
  useBridgeEnv,
} from './support/bridge-env';
import { httpUpstream } from './support/http-upstream';

useBridgeEnv();

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01';

/** A stdio bridge on in-memory streams, and the target a host would use to reach it. */
async function bridgeOnStreams(upstream: Era) {
  const toBridge = new PassThrough();
  const fromBridge = new PassThrough();
  const bridge = closeAfterTest(
    await startStdioBridge({
      upstream: httpServer({ url: await httpUpstream() }),
      era: upstream,
      input: toBridge,
      output: fromBridge,
    }),
  );
  const host: ServerTarget = {
    kind: 'stream',
    key: 'stdio-bridge-under-test',
    open: () => new StdioServerTransport({ input: fromBridge, output: toBridge }),
  };
  return { bridge, host };
}

function connectHost(host: ServerTarget, era: Era) {
  return McpClient.connect(host, {
    clientInfo: { name: 'spawning-host', version: '0.0.0' },
    era,
    trace: { traceparent: TRACEPARENT },
    handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Grace' } }) },
  }).then(closeAfterTest);
}

describe.each(COMBINATIONS)(
  '$downstream host → stdio bridge → $upstream HTTP server',
  ({ downstream, upstream }) => {
    it('carries an input round, progress, a list change and trace context', {
      timeout: BRIDGE_TIMEOUT,
    }, async () => {
      const { bridge, host } = await bridgeOnStreams(upstream);
      expect(bridge.upstreamVerdict).toMatchObject({ era: upstream, transport: 'streamable-http' });
      const client = await connectHost(host, downstream);
      expect(client.era).toBe(downstream);
      expect(client.serverInfo?.name).toBe('http-upstream');

      expect(textOf(await client.callTool('greet'))).toBe('Hello, Grace!');

      const progress: number[] = [];
      await client.callTool(
        'count',
        {},
        { onProgress: (update) => progress.push(update.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);

      expect(JSON.parse(textOf(await client.callTool('trace')))).toEqual({
        traceparent: TRACEPARENT,
      });

      const changes = client.listen({ toolsListChanged: true });
      await changes.acknowledged;
      await client.callTool('toggle');
      for await (const change of changes) {
        expect(change).toEqual({ type: 'toolsListChanged' });
        break;
      }
      const { tools } = await client.listTools({}, { cache: 'bypass' });
      expect(tools.map((tool) => tool.name)).not.toContain('extra');
    });
  },
);

describe('the end of the downstream', () => {
  it('ends the bridge and its upstream when the host closes the input', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const { bridge, host } = await bridgeOnStreams('legacy');
    const client = await connectHost(host, 'modern');
    expect(textOf(await client.callTool('count'))).toBe('counted');
    await client.close();
    expect(await bridge.closed).toEqual({ reason: 'downstream-ended' });
  });
});
