/**
 * The stdio direction: a server reached by the upstream client (typically an HTTP server of
 * either era) served on this process's stdin/stdout, in both eras, for hosts that only spawn
 * processes.
 */
import { type ServedConnection, serveTransport } from '@twofold/server/experimental';
import { StdioServerTransport } from '@twofold/transports/node';
import { endOnce, openBridge } from './bridge-core';
import type { StdioBridge, StdioBridgeOptions } from './types';

/**
 * Starts a bridge serving `options.upstream` on `options.input`/`output` (default the process
 * streams; nothing else may write to that output). Resolves once the upstream is connected
 * and listed and serving has started; rejects (leaving nothing running) when either fails.
 * The bridge ends on `close()`, when the input ends (the host is done), or when the upstream
 * connection ends.
 *
 * @experimental
 */
export async function startStdioBridge(options: StdioBridgeOptions): Promise<StdioBridge> {
  const core = await openBridge(options);
  let connection: ServedConnection;
  try {
    const transport = new StdioServerTransport({
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.output === undefined ? {} : { output: options.output }),
    });
    connection = await serveTransport(core.served, transport, {
      onerror: (error) =>
        core.report({ source: 'bridge', level: 'warning', message: error.message, data: error }),
    });
  } catch (error) {
    await core.close();
    throw error;
  }
  // Downstream first: open listens end with their final result while the upstream is there.
  const lifecycle = endOnce(async () => {
    try {
      await connection.close();
    } finally {
      await core.close();
    }
  }, core.report);
  void connection.closed.then(() => lifecycle.endQuietly({ reason: 'downstream-ended' }));
  void core.upstreamEnded.then((error) =>
    lifecycle.endQuietly({ reason: 'upstream-ended', ...(error === undefined ? {} : { error }) }),
  );
  return {
    upstreamVerdict: core.client.verdict,
    closed: lifecycle.closed,
    close: () => lifecycle.end({ reason: 'closed' }),
  };
}
