/**
 * The era probe on a message stream, made to survive slow starts. `server/discover` goes first;
 * when the server says nothing for `probeTimeoutMs`, `initialize` follows on the same process
 * while the probe keeps listening, and whichever answer proves the era first decides:
 *
 * - a discover result or -32022 (however late) → modern; the pending `initialize` is forgotten
 *   without a word (a modern server answers it with an error or not at all);
 * - an `initialize` result → legacy, once a `ping` round trip has let a server that handles
 *   requests concurrently get its discover answer out; the probe is forgotten the same way.
 *   When the probe was never answered, the verdict is `reachedBy: 'silence'` and no host may
 *   store it;
 * - `initialize` refused while the probe is silent → the probe gets one more `probeTimeoutMs`,
 *   then a refusal naming modern versions still moves to modern, any other stands.
 *
 * Only the process ending (or its stream breaking) is a reason to start a fresh one.
 */
import {
  classifyStdioProbe,
  LocalError,
  LocalErrorCode,
  type ProbeObservation,
} from '@twofold/protocol/experimental';
import { type HandshakeOutcome, initialize, ModernServerError } from '../legacy/handshake';
import { completeLegacySession, routeEarly } from '../legacy/session';
import type { RpcConnection } from '../rpc/connection';
import { Probe, type ProbeOutcome, settle } from './probe';
import { type Established, serverName } from './scope';
import {
  type ConnectContext,
  discoverModern,
  type LegacyStep,
  legacyHandshake,
  modernAfterRejection,
  modernSession,
} from './steps';

/** How the stream strategy opens processes and runs the legacy handshake. */
export interface StreamWays {
  /** A fresh, started connection (a new process on stdio). */
  open(): Promise<RpcConnection>;
  /** The legacy step for the stream, with `version` offered. */
  legacy(version: string | undefined): LegacyStep;
}

/** Probes `connection` (just started) and establishes the session in the era it proves. */
export async function probeStream(
  context: ConnectContext,
  connection: RpcConnection,
  requested: string,
  ways: StreamWays,
): Promise<Established> {
  context.scope.phase = 'probe';
  const probe = new Probe(context, connection, requested);
  const early = await probe.within(context.probeTimeoutMs);
  if (early !== undefined) return answered(context, connection, requested, early, ways);
  return overlapped(context, connection, requested, probe, ways);
}

/** What a probe answer (with no `initialize` in flight) means. */
async function answered(
  context: ConnectContext,
  connection: RpcConnection,
  requested: string,
  outcome: ProbeOutcome,
  ways: StreamWays,
): Promise<Established> {
  const observation = observed(context, outcome);
  if (observation.type === 'closed') return fresh(context, ways);
  const modern = await modernBy(context, connection, requested, observation);
  if (modern !== undefined) return modern;
  const verdict = classifyStdioProbe(observation, { requested, modern: context.modernVersions });
  const version = verdict.verdict === 'legacy' ? verdict.version : undefined;
  return legacyHandshake(context, connection, ways.legacy(version));
}

/** The probe stayed silent: `initialize` on the same process, the probe still listening. */
async function overlapped(
  context: ConnectContext,
  connection: RpcConnection,
  requested: string,
  probe: Probe,
  ways: StreamWays,
): Promise<Established> {
  const { scope, hooks } = context;
  scope.phase = 'initialize';
  const giveUp = new AbortController();
  const stop = () => giveUp.abort(scope.signal.reason);
  scope.signal.addEventListener('abort', stop, { once: true });
  routeEarly(connection, hooks);
  const handshake = settle(
    initialize(connection, hooks, { signal: giveUp.signal, keepOpen: true }),
  );
  try {
    const first = await Promise.race([
      probe.outcome.then((outcome) => ({ probe: outcome })),
      handshake.then((result) => ({ handshake: result })),
    ]);
    // The same read may have delivered both answers: proof of modern wins.
    const outcome = 'probe' in first ? first.probe : probe.current;
    if (outcome !== undefined) {
      const observation = observed(context, outcome);
      if (observation.type === 'closed') {
        // `initialize` timing out closes the process itself: that is no reason to start another.
        const result = await handshake;
        if (!result.ok && isTimeout(result.error)) throw result.error;
        return fresh(context, ways);
      }
      const modern = await modernBy(context, connection, requested, observation, () =>
        giveUp.abort(),
      );
      if (modern !== undefined) return modern;
    }
    // Legacy by the probe's own error, or by `initialize` answering first.
    const result = await handshake;
    if (result.ok && !heard(probe)) {
      const late = await afterInitialize(context, connection, probe);
      if (late !== undefined) {
        const modern = await modernBy(context, connection, requested, observed(context, late));
        if (modern !== undefined) return modern;
      }
    }
    const reachedBy = heard(probe) ? 'answer' : 'silence';
    probe.abandon();
    if (result.ok) return legacySession(context, connection, result.value, reachedBy);
    return refused(context, connection, requested, probe, result.error, ways);
  } finally {
    scope.signal.removeEventListener('abort', stop);
  }
}

/**
 * `initialize` was answered while the probe is still silent. A server that handles requests
 * concurrently (twofold's own, say) may answer `initialize` first although its discover answer
 * is on its way, so the probe gets until a `ping` sent now is answered (by then a server that
 * reads in order has sent everything it had for the probe), or `probeTimeoutMs` at most.
 */
async function afterInitialize(
  context: ConnectContext,
  connection: RpcConnection,
  probe: Probe,
): Promise<ProbeOutcome | undefined> {
  const stop = new AbortController();
  const barrier = settle(
    connection.request('ping', undefined, {
      timeoutMs: 0,
      signal: stop.signal,
      cancelOnWire: false,
    }),
  );
  try {
    return await Promise.race([
      probe.within(context.probeTimeoutMs),
      // A discover answer read before the ping's is in `probe.current` from its delivery on.
      barrier.then(() => probe.current),
    ]);
  } finally {
    // A ping still unanswered is given up without a word.
    stop.abort();
  }
}

/** Whether the probe got an answer (a result or an error). */
function heard(probe: Probe): boolean {
  const said = probe.current?.type;
  return said === 'result' || said === 'error';
}

/** `initialize` failed while the probe may still answer. */
async function refused(
  context: ConnectContext,
  connection: RpcConnection,
  requested: string,
  probe: Probe,
  error: unknown,
  ways: StreamWays,
): Promise<Established> {
  if (context.scope.signal.aborted || isTimeout(error)) throw error;
  if (connection.isClosed) return fresh(context, ways);
  // A server that handles requests concurrently may refuse `initialize` before its discover
  // answer is out: give that answer the time the probe had.
  const late = probe.current ?? (await probe.within(context.probeTimeoutMs));
  probe.abandon();
  if (late !== undefined && late.type !== 'abandoned') {
    const observation = observed(context, late);
    if (observation.type === 'closed') return fresh(context, ways);
    const modern = await modernBy(context, connection, requested, observation);
    if (modern !== undefined) return modern;
  }
  if (error instanceof ModernServerError) {
    return modernAfterRejection(context, connection, ways.legacy(undefined), error);
  }
  throw error;
}

/**
 * The modern session when `observation` proves a modern server (`onModern` runs first), a
 * thrown error when it proves a failure, `undefined` when it means legacy.
 */
async function modernBy(
  context: ConnectContext,
  connection: RpcConnection,
  requested: string,
  observation: ProbeObservation,
  onModern?: () => void,
): Promise<Established | undefined> {
  const verdict = classifyStdioProbe(observation, { requested, modern: context.modernVersions });
  switch (verdict.verdict) {
    case 'modern':
      onModern?.();
      return modernSession(context, connection, 'stream', verdict.version, verdict.result);
    case 'retry':
      onModern?.();
      return discoverModern(context, connection, 'stream', verdict.version, false);
    case 'error':
      onModern?.();
      throw new LocalError(
        verdict.code,
        `Era detection for ${serverName(context.target)}: ${verdict.reason}`,
        { details: { serverKey: context.target.key } },
      );
    case 'legacy':
      return undefined;
  }
}

/** The probe's outcome as an observation; a probe given up on ends the attempt. */
function observed(context: ConnectContext, outcome: ProbeOutcome): ProbeObservation {
  if (outcome.type === 'failed') throw outcome.error;
  if (outcome.type === 'abandoned') throw context.scope.signal.reason ?? abandonedError();
  return outcome;
}

/** The process ended before an answer (some legacy servers exit on unknown input). */
async function fresh(context: ConnectContext, ways: StreamWays): Promise<Established> {
  const connection = await ways.open();
  return legacyHandshake(context, connection, ways.legacy(undefined));
}

async function legacySession(
  context: ConnectContext,
  connection: RpcConnection,
  outcome: HandshakeOutcome,
  reachedBy: 'answer' | 'silence',
): Promise<Established> {
  context.scope.phase = 'initialize';
  const session = await completeLegacySession(
    {
      connection,
      hooks: context.hooks,
      serverKey: context.target.key,
      transport: 'stream',
      reachedBy,
    },
    outcome,
  );
  return { session, connection };
}

function isTimeout(error: unknown): boolean {
  return error instanceof LocalError && error.code === LocalErrorCode.RequestTimeout;
}

function abandonedError(): Error {
  return new Error('The era probe was given up');
}
