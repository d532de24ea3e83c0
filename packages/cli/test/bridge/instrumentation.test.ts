/**
 * The bridge's `instrumentation` option, through a stdio bridge in front of an HTTP upstream:
 * the server hook follows each downstream request with the downstream trace context, the client
 * hook each upstream request, and the trace context the client hook gives is what reaches the
 * upstream handler (without a client hook, the downstream's own, as it came).
 */
import { PassThrough } from 'node:stream';
import {
  type ClientInstrumentation,
  McpClient,
  type ServerTarget,
} from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import type { ServerInstrumentation } from '@twofold/server/experimental';
import { StdioServerTransport } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import { type BridgeInstrumentation, startStdioBridge } from '../../src/bridge/index';
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

const DOWNSTREAM = '00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01';
const BRIDGE_SPAN = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

/** Hooks that record what they see; the client hook gives `BRIDGE_SPAN` as trace context. */
function recordingHooks() {
  const served: { method: string; traceparent: string | undefined }[] = [];
  const sent: { method: string; http: boolean; ended: boolean }[] = [];
  const server: ServerInstrumentation = {
    startRequest: (request) => {
      served.push({ method: request.method, traceparent: request.trace?.traceparent });
      return { run: (handle) => handle(), end: () => undefined };
    },
  };
  const client: ClientInstrumentation = {
    startRequest: (request) => {
      const entry = { method: request.method, http: request.http, ended: false };
      sent.push(entry);
      return {
        trace: { traceparent: BRIDGE_SPAN },
        end: () => {
          entry.ended = true;
        },
      };
    },
  };
  return { served, sent, server, client };
}

async function tracedCall(downstream: Era, upstream: Era, instrumentation: BridgeInstrumentation) {
  const toBridge = new PassThrough();
  const fromBridge = new PassThrough();
  closeAfterTest(
    await startStdioBridge({
      upstream: httpServer({ url: await httpUpstream() }),
      era: upstream,
      input: toBridge,
      output: fromBridge,
      instrumentation,
    }),
  );
  const host: ServerTarget = {
    kind: 'stream',
    key: 'instrumented-bridge',
    open: () => new StdioServerTransport({ input: fromBridge, output: toBridge }),
  };
  const client = closeAfterTest(
    await McpClient.connect(host, {
      clientInfo: { name: 'host', version: '0.0.0' },
      era: downstream,
      trace: { traceparent: DOWNSTREAM },
    }),
  );
  return JSON.parse(textOf(await client.callTool('trace')));
}

describe.each(COMBINATIONS)(
  '$downstream host → instrumented bridge → $upstream',
  ({ downstream, upstream }) => {
    it('follows both hops and sends the client hook’s trace context upstream', {
      timeout: BRIDGE_TIMEOUT,
    }, async () => {
      const hooks = recordingHooks();
      const seen = await tracedCall(downstream, upstream, hooks);
      expect(seen).toEqual({ traceparent: BRIDGE_SPAN });
      expect(hooks.served).toContainEqual({ method: 'tools/call', traceparent: DOWNSTREAM });
      expect(hooks.sent).toContainEqual({ method: 'tools/call', http: true, ended: true });
    });

    it('forwards the downstream trace context as it came without a client hook', {
      timeout: BRIDGE_TIMEOUT,
    }, async () => {
      const hooks = recordingHooks();
      const seen = await tracedCall(downstream, upstream, { server: hooks.server });
      expect(seen).toEqual({ traceparent: DOWNSTREAM });
      expect(hooks.served).toContainEqual({ method: 'tools/call', traceparent: DOWNSTREAM });
    });
  },
);
