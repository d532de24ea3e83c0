/**
 * What crosses the HTTP bridge besides results, shown by the probe server (modern, or pinned
 * legacy) to twofold's `McpClient` (modern and legacy): a downstream cancel reaches the
 * upstream handler, trace context arrives in the upstream `_meta`, log messages reach the
 * downstream `onLog`, and resource updates reach a downstream subscription. And the bridge
 * ends, saying why, when its upstream dies.
 */
import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { BridgeLogEntry } from '../../src/bridge/index';
import {
  BRIDGE_TIMEOUT,
  COMBINATIONS,
  downstreamClient,
  type Era,
  eventually,
  loopbackBridge,
  NOTE_URI,
  probeServer,
  textOf,
  useBridgeEnv,
} from './support/bridge-env';

useBridgeEnv();

const TRACE = {
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'bridge=1',
};

function bridgeProbe(era: Era, logs: BridgeLogEntry[] = []) {
  return loopbackBridge({ upstream: probeServer(), era, onLog: (entry) => logs.push(entry) });
}

describe.each(COMBINATIONS)(
  '$downstream client → bridge → $upstream probe server',
  ({ downstream, upstream }) => {
    it('carries cancellation, trace context, logs and resource updates', {
      timeout: BRIDGE_TIMEOUT,
    }, async () => {
      const bridgeLogs: BridgeLogEntry[] = [];
      const bridge = await bridgeProbe(upstream, bridgeLogs);
      const clientLogs: Record<string, unknown>[] = [];
      const client = await downstreamClient(bridge.url, downstream, {
        trace: TRACE,
        logLevel: 'info',
        onLog: (params) => clientLogs.push(params),
      });

      // A call cancelled downstream is cancelled upstream: the handler's signal fires.
      const abort = new AbortController();
      const waiting = client.callTool(
        'wait',
        {},
        {
          signal: abort.signal,
          onProgress: () => abort.abort(),
        },
      );
      await expect(waiting).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
      // The upstream hears of it a moment after the downstream gave up.
      await eventually(async () => textOf(await client.callTool('cancellations')) === '1');

      // The client's trace context reaches the upstream handler.
      expect(JSON.parse(textOf(await client.callTool('trace')))).toEqual(TRACE);

      // The upstream's log reaches the downstream client and the bridge's own log.
      expect(textOf(await client.callTool('log'))).toBe('logged');
      expect(clientLogs).toContainEqual({
        level: 'info',
        logger: 'probe',
        data: 'probe says hello',
      });
      expect(bridgeLogs).toContainEqual(
        expect.objectContaining({ source: 'upstream', message: 'probe: probe says hello' }),
      );

      // A downstream subscription makes the bridge subscribe upstream, and updates cross.
      const updates = client.listen({ resourceSubscriptions: [NOTE_URI] });
      expect(await updates.acknowledged).toMatchObject({ resourceSubscriptions: [NOTE_URI] });
      let updated = false;
      const received = (async () => {
        for await (const change of updates) {
          expect(change).toEqual({ type: 'resourceUpdated', uri: NOTE_URI });
          updated = true;
          break;
        }
      })();
      // The upstream subscription follows the downstream acknowledgement: touch until it is in place.
      await eventually(async () => {
        await client.callTool('touch');
        return updated;
      });
      await received;
    });
  },
);

describe('the end of the upstream', () => {
  it('ends the bridge, with the reason, when the upstream process exits', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const bridge = await bridgeProbe('legacy');
    const client = await downstreamClient(bridge.url, 'modern');
    expect(textOf(await client.callTool('crash'))).toBe('bye');
    const end = await bridge.closed;
    expect(end.reason).toBe('upstream-ended');
    expect(end.reason === 'upstream-ended' && end.error).toBeInstanceOf(LocalError);
    // The endpoint is gone with it.
    await expect(client.callTool('trace')).rejects.toBeDefined();
  });
});
