/**
 * Era detection on a message stream (stdio, or any `stream` target), DIGEST §2.1 and §4.2:
 * pins and prior verdicts go straight to their era; otherwise `probeStream` probes with
 * `server/discover` and, when the server is slow to answer, runs `initialize` beside the probe
 * on the same process (see `stream-probe.ts`). A fresh process is started only when one ends.
 */
import type { RpcConnection } from '../rpc/connection';
import type { ServerTarget } from '../types';
import type { EraPlan } from './plan';
import type { Established } from './scope';
import {
  type ConnectContext,
  discoverModern,
  type LegacyStep,
  legacyHandshake,
  modernSession,
} from './steps';
import { probeStream } from './stream-probe';

type StreamTarget = Extract<ServerTarget, { kind: 'stream' }>;

/** stdio and legacy HTTP cancel with `notifications/cancelled`. */
const STREAM_CANCEL = { notify: true, abortExchange: false };

/** Connects to a stream target as `plan` says. */
export async function connectStream(
  context: ConnectContext,
  target: StreamTarget,
  plan: EraPlan,
): Promise<Established> {
  const open = () => context.scope.start(context.scope.open(target.open(), STREAM_CANCEL));
  // After a rejected initialize, go on where the server still listens, or on a fresh process.
  const reuseOrOpen = async (connection: RpcConnection) => {
    if (!connection.isClosed) return connection;
    context.scope.abandon(connection);
    return open();
  };
  const legacy = (
    step: Omit<LegacyStep, 'transport' | 'modernConnection' | 'modernTransport'>,
  ): LegacyStep => ({
    ...step,
    transport: 'stream',
    modernTransport: 'stream',
    modernConnection: reuseOrOpen,
  });

  if (plan.mode === 'legacy') {
    const connection = await open();
    return legacyHandshake(
      context,
      connection,
      legacy({ version: plan.legacyVersion, pinned: plan.pinned, allowModern: !plan.eraPinned }),
    );
  }
  const connection = await open();
  if (plan.mode === 'modern') {
    if (plan.discover !== undefined) {
      return modernSession(context, connection, 'stream', plan.modernVersion, plan.discover);
    }
    return discoverModern(context, connection, 'stream', plan.modernVersion, !plan.pinned);
  }
  return probeStream(context, connection, plan.modernVersion, {
    open: async () => {
      // The process that ended is of no more use.
      context.scope.abandon(connection);
      return open();
    },
    legacy: (version) => legacy({ version, pinned: false, allowModern: true }),
  });
}
