/**
 * What both directions of the bridge share: the upstream client (with input handlers that feed
 * the call table), the catalog, the upstream-backed operations, the `ServedServer` the
 * downstream side serves, and the end of it all, once.
 */
import { McpClient } from '@twofold/client/experimental';
import {
  type CreateMessageResult,
  type ElicitResult,
  type Implementation,
  LEGACY_VERSIONS,
  type LoggingLevel,
  MODERN_VERSIONS,
} from '@twofold/protocol/experimental';
import type { ServedServer } from '@twofold/server/experimental';
import { BridgedOperations } from './bridged-operations';
import { CallTable } from './call-table';
import type { BridgeEnd, BridgeLogEntry, BridgeUpstreamOptions } from './types';
import { UpstreamCatalog } from './upstream-catalog';

const DEFAULT_INPUT_TIMEOUT_MS = 10 * 60 * 1000;

/** The running upstream half of a bridge. */
export interface BridgeCore {
  readonly client: McpClient;
  /** What the downstream side serves, in both eras. */
  readonly served: ServedServer;
  /** Settles when the upstream connection ends without `close()`, with its cause. */
  readonly upstreamEnded: Promise<Error | undefined>;
  report(entry: BridgeLogEntry): void;
  /** Cancels the calls in flight, stops following changes, closes the upstream. */
  close(): Promise<void>;
}

/** Connects to the upstream and builds what the downstream side serves. */
export async function openBridge(options: BridgeUpstreamOptions): Promise<BridgeCore> {
  const report = (entry: BridgeLogEntry) => options.onLog?.(entry);
  const calls = new CallTable(options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS);
  const { instrumentation } = options;
  const client = await McpClient.connect(options.upstream, {
    clientInfo: options.clientInfo ?? { name: 'twofold-bridge', version: __TWOFOLD_VERSION__ },
    era: options.era ?? 'auto',
    ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }),
    ...(options.verdict === undefined ? {} : { verdict: options.verdict }),
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.probeTimeoutMs === undefined ? {} : { probeTimeoutMs: options.probeTimeoutMs }),
    // A legacy upstream's own requests land here; the table hands each to a downstream round.
    // Roots are not offered: on a legacy session they are one session-wide list, which no
    // single downstream client can speak for.
    handlers: {
      // The downstream answer is passed on as it is; the upstream judges it.
      elicitation: async (params, context) =>
        (await calls.ask(
          { method: 'elicitation/create', params },
          context.signal,
        )) as unknown as ElicitResult,
      sampling: async (params, context) =>
        (await calls.ask(
          { method: 'sampling/createMessage', params },
          context.signal,
        )) as unknown as CreateMessageResult,
    },
    // Every downstream request must reach the upstream; the downstream client caches.
    cache: false,
    logLevel: options.logLevel ?? 'debug',
    onLog: (params) => {
      calls.log(params);
      report(upstreamLogEntry(params));
    },
    onWarning: (warning) =>
      report({ source: 'bridge', level: 'warning', message: warning.message, data: warning }),
    ...(instrumentation?.client === undefined ? {} : { instrumentation: instrumentation.client }),
  });
  let closing = false;
  const upstreamEnded = new Promise<Error | undefined>((resolve) => {
    client.onClose((cause) => {
      if (!closing) resolve(cause);
    });
  });
  let catalog: UpstreamCatalog;
  try {
    catalog = await UpstreamCatalog.load(client, (message, error) =>
      report({ source: 'bridge', level: 'warning', message, data: error }),
    );
  } catch (error) {
    closing = true;
    await client.close();
    throw error;
  }
  const serverInfo: Implementation = client.serverInfo ?? {
    name: 'twofold-bridge',
    version: __TWOFOLD_VERSION__,
  };
  const served: ServedServer = {
    options: {
      name: serverInfo.name,
      version: serverInfo.version,
      ...(instrumentation?.server === undefined ? {} : { instrumentation: instrumentation.server }),
    },
    // Downstream clients meet the upstream server, not the bridge.
    serverInfo,
    instructions: client.instructions,
    offeredVersions: { modern: MODERN_VERSIONS, legacy: LEGACY_VERSIONS },
    operations: new BridgedOperations(client, catalog, calls, {
      forwardTrace: instrumentation?.client === undefined,
    }),
    headerParams: (toolName) => catalog.headerParams(toolName),
  };
  return {
    client,
    served,
    upstreamEnded,
    report,
    close: async () => {
      closing = true;
      calls.cancelAll('The bridge is closing');
      await catalog.close();
      await client.close();
    },
  };
}

/**
 * Runs `teardown` once, at the first end, and settles `closed` with that end's reason after
 * it. Later ends (the teardown's own echoes among them) change nothing. A failed teardown is
 * reported, and rejects `end()`; the ends the bridge notices itself are `endQuietly`.
 */
export function endOnce(
  teardown: () => Promise<void>,
  report: (entry: BridgeLogEntry) => void,
): {
  closed: Promise<BridgeEnd>;
  end(reason: BridgeEnd): Promise<void>;
  endQuietly(reason: BridgeEnd): void;
} {
  let ending: Promise<void> | undefined;
  let settle!: (end: BridgeEnd) => void;
  const closed = new Promise<BridgeEnd>((resolve) => {
    settle = resolve;
  });
  const end = (reason: BridgeEnd) => {
    ending ??= teardown()
      .catch((error: unknown) => {
        report({
          source: 'bridge',
          level: 'error',
          message: 'Closing the bridge failed',
          data: error,
        });
        throw error;
      })
      .finally(() => settle(reason));
    return ending;
  };
  // Already reported: nobody awaits these ends but `closed`.
  return { closed, end, endQuietly: (reason) => void end(reason).catch(() => undefined) };
}

/** An upstream `notifications/message` as a log entry. */
function upstreamLogEntry(params: Record<string, unknown>): BridgeLogEntry {
  const level = (typeof params.level === 'string' ? params.level : 'info') as LoggingLevel;
  const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  const logger = typeof params.logger === 'string' ? `${params.logger}: ` : '';
  return { source: 'upstream', level, message: `${logger}${text}`, data: params.data };
}
