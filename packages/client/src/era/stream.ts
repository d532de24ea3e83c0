/**
 * Era detection on a message stream (stdio, or any `stream` target), DIGEST §2.1 and §4.2: probe
 * with `server/discover`; a discover result or -32022 means modern on the same connection; any
 * other error means legacy on the same connection (one extra round trip, no extra process);
 * silence or an exit means legacy on a fresh connection, so a late answer to the probe cannot
 * land in the legacy session (one probe timeout, at most one extra process).
 */
import {
  classifyStdioProbe,
  LocalError,
  LocalErrorCode,
  type ProbeObservation,
} from '@twofold/protocol/experimental';
import type { RpcConnection } from '../rpc/connection';
import type { ServerTarget } from '../types';
import type { EraPlan } from './plan';
import type { Established } from './scope';
import {
  type ConnectContext,
  discoverModern,
  discoverParams,
  type LegacyStep,
  legacyHandshake,
  modernSession,
} from './steps';

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
  ) => ({
    ...step,
    transport: 'stream' as const,
    modernTransport: 'stream' as const,
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

  const requested = plan.modernVersion;
  const observation = await probe(context, connection, requested);
  const verdict = classifyStdioProbe(observation, {
    requested,
    modern: context.modernVersions,
  });
  switch (verdict.verdict) {
    case 'modern':
      return modernSession(context, connection, 'stream', verdict.version, verdict.result);
    case 'retry':
      return discoverModern(context, connection, 'stream', verdict.version, false);
    case 'error':
      throw new LocalError(verdict.code, `Era detection for ${target.key}: ${verdict.reason}`, {
        details: { serverKey: target.key },
      });
    case 'legacy': {
      let legacyConnection = connection;
      if (verdict.fresh) {
        context.scope.abandon(connection);
        legacyConnection = await open();
      }
      return legacyHandshake(
        context,
        legacyConnection,
        legacy({ version: verdict.version, pinned: false, allowModern: true }),
      );
    }
  }
}

/**
 * Sends the probe and reports what came back: an answer, silence past the probe timeout, or
 * the stream ending (a server that exits on unknown input).
 */
async function probe(
  context: ConnectContext,
  connection: RpcConnection,
  version: string,
): Promise<ProbeObservation> {
  const { scope } = context;
  scope.phase = 'probe';
  try {
    const outcome = await connection.requestRaw(
      'server/discover',
      discoverParams(context, version),
      {
        timeoutMs: context.probeTimeoutMs,
        signal: scope.signal,
      },
    );
    return outcome.type === 'result'
      ? { type: 'result', result: outcome.result }
      : { type: 'error', error: outcome.error };
  } catch (error) {
    if (scope.signal.aborted || !(error instanceof LocalError)) throw error;
    if (error.code === LocalErrorCode.RequestTimeout) return { type: 'timeout' };
    // The process exited, or the stream broke: a legacy server may refuse unknown input so.
    return { type: 'closed' };
  }
}
