/**
 * The legacy `initialize` exchange: offer a version, judge the server's answer, and recognise a
 * modern-only server by the versions its rejection lists.
 */
import {
  getWire,
  type InitializeResult,
  isLegacyVersion,
  isModernVersion,
  LATEST_LEGACY_VERSION,
  LEGACY_VERSIONS,
  type LegacyVersion,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  parseResult,
  selectMutualVersion,
} from '@twofold/protocol/experimental';
import type { RpcConnection } from '../rpc/connection';
import type { SessionHooks } from '../session/types';

/**
 * `initialize` was rejected by a server that names modern protocol versions: it speaks the
 * modern era (and maybe not the legacy one). The connection is left open; the caller decides
 * whether to go on in the modern era on it.
 *
 * @experimental
 */
export class ModernServerError extends Error {
  override readonly name = 'ModernServerError';
  constructor(
    /** Every version the server listed, as it listed them. */
    readonly supported: string[],
    cause: ProtocolError,
  ) {
    super(`The server rejected initialize and supports ${supported.join(', ')}`, { cause });
  }
}

/** What a successful handshake learned. */
export interface HandshakeOutcome {
  protocolVersion: LegacyVersion;
  result: InitializeResult;
}

/** How the version is offered. */
export interface HandshakeOptions {
  version?: string | undefined;
  pinned?: boolean | undefined;
  /**
   * Gives the handshake up (`REQUEST_ABORTED`): nothing is sent (`initialize` is never
   * cancelled on the wire) and a late answer is dropped.
   */
  signal?: AbortSignal | undefined;
  /**
   * Leave the connection open on every failure: era detection still waits there for the probe
   * sent before `initialize`.
   */
  keepOpen?: boolean | undefined;
}

/**
 * Sends `initialize` and returns the negotiated version and the validated result. Every
 * failure closes the connection except `ModernServerError` (or any, under `keepOpen`).
 */
export async function initialize(
  connection: RpcConnection,
  hooks: SessionHooks,
  options: HandshakeOptions,
): Promise<HandshakeOutcome> {
  try {
    return await negotiate(connection, hooks, options);
  } catch (error) {
    if (!(error instanceof ModernServerError) && options.keepOpen !== true) {
      await connection.close();
    }
    throw error;
  }
}

async function negotiate(
  connection: RpcConnection,
  hooks: SessionHooks,
  options: HandshakeOptions,
): Promise<HandshakeOutcome> {
  const offered = options.version ?? LATEST_LEGACY_VERSION;
  if (!isLegacyVersion(offered)) {
    throw new LocalError(LocalErrorCode.NoMutualVersion, `${offered} is not a legacy version`, {
      details: { offered },
    });
  }
  let result: Record<string, unknown>;
  try {
    result = await sendInitialize(connection, hooks, offered, options.signal);
  } catch (error) {
    const fallback = judgeRejection(error, offered, options.pinned === true);
    // A server may reject our version naming the legacy ones it has: offer its newest once.
    result = await sendInitialize(connection, hooks, fallback, options.signal);
  }
  const answered = result.protocolVersion;
  const acceptable = options.pinned === true ? answered === offered : isLegacyVersion(answered);
  if (!acceptable || !isLegacyVersion(answered)) {
    throw new LocalError(
      LocalErrorCode.NoMutualVersion,
      `The server answered initialize with protocol version ${JSON.stringify(answered)}, ` +
        (options.pinned === true ? `not the pinned ${offered}` : 'which is not supported'),
      { details: { offered, answered } },
    );
  }
  const parsed = parseResult(getWire(answered), 'initialize', result);
  if (!parsed.ok) throw parsed.error;
  return { protocolVersion: answered, result: parsed.value as unknown as InitializeResult };
}

/**
 * `initialize` must not be cancelled, so no request timeout (which would send
 * `notifications/cancelled`) applies: when the time is up the connection is closed instead.
 */
async function sendInitialize(
  connection: RpcConnection,
  hooks: SessionHooks,
  version: LegacyVersion,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  let timedOut = false;
  const limit = hooks.requestTimeoutMs;
  const timer =
    limit > 0 && Number.isFinite(limit)
      ? setTimeout(() => {
          timedOut = true;
          void connection.close();
        }, limit)
      : undefined;
  try {
    return await connection.request(
      'initialize',
      { protocolVersion: version, capabilities: hooks.capabilities, clientInfo: hooks.clientInfo },
      { timeoutMs: 0, signal, cancelOnWire: false },
    );
  } catch (error) {
    if (!timedOut) throw error;
    throw new LocalError(LocalErrorCode.RequestTimeout, `initialize timed out after ${limit} ms`, {
      cause: error,
      details: { method: 'initialize', timeoutMs: limit },
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads an `initialize` rejection: a modern server → `ModernServerError`; legacy versions we
 * share (not pinned) → the one to offer instead; otherwise the rejection stands (or, when the
 * server listed only versions we lack, `NO_MUTUAL_VERSION`).
 */
function judgeRejection(error: unknown, offered: LegacyVersion, pinned: boolean): LegacyVersion {
  if (!(error instanceof ProtocolError)) throw error;
  const supported = supportedVersionsOf(error.data);
  if (supported === undefined) throw error;
  if (supported.some(isModernVersion)) throw new ModernServerError(supported, error);
  const mutual = pinned ? undefined : selectMutualVersion(supported, LEGACY_VERSIONS);
  if (mutual !== undefined && mutual !== offered) return mutual;
  throw new LocalError(
    LocalErrorCode.NoMutualVersion,
    `The server rejected protocol version ${offered} and supports ${supported.join(', ') || 'none'}`,
    { cause: error, details: { offered, supported } },
  );
}

/** `data.supported` (the spec's example) or `data.supportedVersions`, when either is a list. */
function supportedVersionsOf(data: unknown): string[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  const list = Array.isArray(record.supported) ? record.supported : record.supportedVersions;
  if (!Array.isArray(list)) return undefined;
  return list.filter((v): v is string => typeof v === 'string');
}
