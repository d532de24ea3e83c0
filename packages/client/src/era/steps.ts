/**
 * The steps both transports share once the era is decided: `server/discover` (with one -32022
 * renegotiation), building the modern session, and the legacy handshake that may still find a
 * modern server behind it.
 */
import {
  buildRequestMeta,
  classifyStdioProbe,
  type DiscoverResult,
  ErrorCode,
  type ErrorObject,
  getWire,
  isModernVersion,
  isRecord,
  LocalError,
  LocalErrorCode,
  type ModernVersion,
  ProtocolError,
  parseResult,
  selectMutualVersion,
} from '@twofold/protocol/experimental';
import { type LegacySessionInit, ModernServerError, startLegacySession } from '../legacy/session';
import { createModernSession } from '../modern/session';
import type { RpcConnection } from '../rpc/connection';
import type { SessionHooks } from '../session/types';
import type { ServerTarget, TransportKind } from '../types';
import type { ConnectScope, Established } from './scope';

/** What every step needs. */
export interface ConnectContext {
  target: ServerTarget;
  hooks: SessionHooks;
  scope: ConnectScope;
  probeTimeoutMs: number;
  /** Modern versions offered, newest first. */
  modernVersions: readonly ModernVersion[];
}

/** The params of a `server/discover` in `version`. */
export function discoverParams(context: ConnectContext, version: string): Record<string, unknown> {
  const { hooks } = context;
  return {
    _meta: buildRequestMeta({
      protocolVersion: version,
      clientCapabilities: hooks.capabilities,
      clientInfo: hooks.clientInfo,
      ...(hooks.trace ? { trace: hooks.trace } : {}),
    }),
  };
}

/**
 * Asks a server known (or pinned) to be modern for `server/discover` and builds the session.
 * -32022 renegotiates once when `renegotiate` allows; other errors are errors.
 */
export async function discoverModern(
  context: ConnectContext,
  connection: RpcConnection,
  transport: TransportKind,
  first: string,
  renegotiate: boolean,
): Promise<Established> {
  const { scope } = context;
  let version = first;
  for (let attempt = 0; ; attempt++) {
    scope.phase = 'discover';
    const outcome = await connection.requestRaw(
      'server/discover',
      discoverParams(context, version),
      {
        timeoutMs: scope.remainingMs(),
        signal: scope.signal,
      },
    );
    if (outcome.type === 'result') {
      return modernSession(context, connection, transport, version, outcome.result);
    }
    const next = renegotiation(context, outcome.error, version);
    if (next === undefined) throw ProtocolError.fromErrorObject(outcome.error);
    if (!renegotiate || attempt > 0) {
      throw new LocalError(
        LocalErrorCode.NoMutualVersion,
        `The server rejected protocol version ${version}${attempt > 0 ? ' after renegotiating' : ', which is pinned'}`,
        { cause: ProtocolError.fromErrorObject(outcome.error), details: { requested: version } },
      );
    }
    version = next;
  }
}

/**
 * A -32022 answer: the modern version to retry with; `undefined` for any other error. Throws
 * when the server lists no modern version we share.
 */
function renegotiation(
  context: ConnectContext,
  error: ErrorObject,
  requested: string,
): string | undefined {
  if (error.code !== ErrorCode.UnsupportedProtocolVersion) return undefined;
  const verdict = classifyStdioProbe(
    { type: 'error', error },
    { requested, modern: context.modernVersions },
  );
  if (verdict.verdict === 'retry') return verdict.version;
  const cause = ProtocolError.fromErrorObject(error);
  if (verdict.verdict === 'error') throw new LocalError(verdict.code, verdict.reason, { cause });
  throw new LocalError(
    LocalErrorCode.NoMutualVersion,
    `The server offers no modern protocol version this client speaks (${cause.message})`,
    { cause },
  );
}

/** The modern session on `connection`, from the discover result the server gave. */
export function modernSession(
  context: ConnectContext,
  connection: RpcConnection,
  transport: TransportKind,
  version: string,
  result: unknown,
): Established {
  if (!isModernVersion(version)) {
    throw new LocalError(
      LocalErrorCode.NoMutualVersion,
      `The server accepted protocol version ${version}, which this client does not speak`,
      { details: { version } },
    );
  }
  const discover = checkedDiscover(context, version, result);
  const verdict = {
    era: 'modern' as const,
    protocolVersion: version,
    transport,
    discover,
    serverKey: context.target.key,
    reachedBy: 'answer' as const,
  };
  const session = createModernSession({ connection, hooks: context.hooks, verdict, discover });
  return { session, connection };
}

/**
 * The discover result, validated. A result that has the shape era detection relies on
 * (`supportedVersions`, `capabilities`) but misses other fields (cache hints, say) is kept with a
 * warning: a server that slightly misreads the schema is still clearly modern.
 */
function checkedDiscover(
  context: ConnectContext,
  version: string,
  result: unknown,
): DiscoverResult {
  const record = isRecord(result) ? result : {};
  const input = record.resultType === undefined ? { ...record, resultType: 'complete' } : record;
  const parsed = parseResult(getWire(version as ModernVersion), 'server/discover', input);
  if (parsed.ok) return parsed.value as unknown as DiscoverResult;
  if (!Array.isArray(record.supportedVersions) || !isRecord(record.capabilities))
    throw parsed.error;
  context.hooks.onWarning({
    code: 'invalid-result',
    message: parsed.error.message,
    ...(parsed.error.details ? { details: parsed.error.details } : {}),
  });
  return input as unknown as DiscoverResult;
}

/** How a legacy handshake runs. */
export interface LegacyStep {
  transport: TransportKind;
  version?: string | undefined;
  pinned: boolean;
  /** Whether a `ModernServerError` may move the attempt to the modern era (not under a pin). */
  allowModern: boolean;
  http?: LegacySessionInit['http'];
  /** The connection to run `server/discover` on when the server turns out to be modern. */
  modernConnection: (legacy: RpcConnection) => Promise<RpcConnection>;
  modernTransport: TransportKind;
}

/**
 * Runs `initialize` on `connection`. An `initialize` rejected by a server that lists modern
 * versions moves the attempt to the modern era (unless the era or version is pinned).
 */
export async function legacyHandshake(
  context: ConnectContext,
  connection: RpcConnection,
  step: LegacyStep,
): Promise<Established> {
  context.scope.phase = 'initialize';
  try {
    const session = await startLegacySession({
      connection,
      hooks: context.hooks,
      serverKey: context.target.key,
      transport: step.transport,
      version: step.version,
      pinned: step.pinned,
      http: step.http,
    });
    return { session, connection };
  } catch (error) {
    if (!(error instanceof ModernServerError)) throw error;
    return modernAfterRejection(context, connection, step, error);
  }
}

/** `initialize` was refused by a server naming modern versions: go on in the modern era. */
export async function modernAfterRejection(
  context: ConnectContext,
  connection: RpcConnection,
  step: Pick<LegacyStep, 'allowModern' | 'modernConnection' | 'modernTransport'>,
  error: ModernServerError,
): Promise<Established> {
  const cause = error.cause instanceof ProtocolError ? error.cause : error;
  const version = selectMutualVersion(error.supported, context.modernVersions);
  if (!step.allowModern || version === undefined) {
    throw new LocalError(
      LocalErrorCode.NoMutualVersion,
      step.allowModern
        ? `${error.message}; this client speaks none of those versions`
        : `${error.message}, but the legacy era is pinned`,
      { cause, details: { supported: error.supported } },
    );
  }
  const modern = await step.modernConnection(connection);
  return discoverModern(context, modern, step.modernTransport, version, true);
}
