/**
 * Era detection over HTTP, DIGEST §4.2: a modern `server/discover` POST first; its status and
 * body decide (`classifyHttpProbe`). Legacy servers get Streamable HTTP `initialize`, and when
 * that POST is refused with 400/404/405, the 2024-11-05 HTTP+SSE transport. 401/403 are
 * authorization failures and 5xx or timeouts are errors: never reasons to fall back.
 */
import {
  classifyHttpProbe,
  classifyLegacyInitializeStatus,
  type HttpProbeObservation,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  type Transport,
} from '@twofold/protocol/experimental';
import type { LegacySessionInit } from '../legacy/session';
import type { RpcConnection } from '../rpc/connection';
import type { HttpTransportRequest, ServerTarget } from '../types';
import { messageOf } from '../util';
import type { ConnectPhaseTransport } from './phase-transport';
import type { EraPlan } from './plan';
import { type Established, serverName } from './scope';
import {
  type ConnectContext,
  discoverModern,
  discoverParams,
  legacyHandshake,
  modernSession,
} from './steps';

type HttpTarget = Extract<ServerTarget, { kind: 'http' }>;

/** Modern HTTP cancels by aborting the request's own exchange. */
const MODERN_CANCEL = { notify: false, abortExchange: true };
/** Legacy HTTP cancels with `notifications/cancelled`. */
const LEGACY_CANCEL = { notify: true, abortExchange: false };

/** What the HTTP strategy needs besides the shared context. */
export interface HttpConnectOptions {
  headerParams: HttpTransportRequest['headerParams'];
}

/** Connects to an HTTP target as `plan` says. */
export async function connectHttp(
  context: ConnectContext,
  target: HttpTarget,
  plan: EraPlan,
  options: HttpConnectOptions,
): Promise<Established> {
  const { scope } = context;
  const openModern = (version: string) =>
    scope.start(
      scope.open(
        target.open({
          kind: 'modern',
          protocolVersion: version,
          headerParams: options.headerParams,
        }),
        MODERN_CANCEL,
      ),
    );
  const http = new HttpLegacy(context, target, options, openModern);

  if (plan.mode === 'legacy') {
    return http.connect({
      version: plan.legacyVersion,
      pinned: plan.pinned,
      allowModern: !plan.eraPinned,
      sseOnly: plan.sseOnly,
    });
  }
  const connection = await openModern(plan.modernVersion);
  if (plan.mode === 'modern') {
    if (plan.discover !== undefined) {
      return modernSession(
        context,
        connection,
        'streamable-http',
        plan.modernVersion,
        plan.discover,
      );
    }
    return discoverModern(context, connection, 'streamable-http', plan.modernVersion, !plan.pinned);
  }

  const requested = plan.modernVersion;
  const { observation, failure } = await probe(context, connection, requested);
  const verdict = classifyHttpProbe(observation, { requested, modern: context.modernVersions });
  switch (verdict.verdict) {
    case 'modern':
      if (verdict.error !== undefined) throw ProtocolError.fromErrorObject(verdict.error);
      return modernSession(context, connection, 'streamable-http', verdict.version, verdict.result);
    case 'retry':
      return discoverModern(context, connection, 'streamable-http', verdict.version, false);
    case 'error':
      // An authorization failure is the caller's to handle as such, not an era question.
      if (failure instanceof LocalError && failure.code === LocalErrorCode.AuthorizationFailed) {
        throw failure;
      }
      throw new LocalError(
        verdict.code,
        `Era detection for ${serverName(target)}: ${verdict.reason}`,
        {
          cause: failure,
          details: {
            ...(failure instanceof LocalError ? failure.details : {}),
            serverKey: target.key,
          },
        },
      );
    case 'legacy':
      scope.abandon(connection);
      return http.connect({
        version: verdict.version,
        pinned: false,
        allowModern: true,
        sseOnly: false,
      });
  }
}

/** The legacy HTTP path: Streamable HTTP, then HTTP+SSE when the server refuses its POST. */
class HttpLegacy {
  constructor(
    private readonly context: ConnectContext,
    private readonly target: HttpTarget,
    private readonly options: HttpConnectOptions,
    private readonly openModern: (version: string) => Promise<RpcConnection>,
  ) {}

  async connect(step: {
    version: string | undefined;
    pinned: boolean;
    allowModern: boolean;
    sseOnly: boolean;
  }): Promise<Established> {
    const { scope } = this.context;
    const common = {
      version: step.version,
      pinned: step.pinned,
      allowModern: step.allowModern,
      modernTransport: 'streamable-http' as const,
      // A modern server found behind `initialize` needs a modern transport.
      modernConnection: async (legacy: RpcConnection) => {
        scope.abandon(legacy);
        return this.openModern(this.context.modernVersions[0] as string);
      },
    };
    if (!step.sseOnly) {
      const transport = this.target.open(this.request('legacy'));
      const connection = await scope.start(scope.open(transport, LEGACY_CANCEL));
      try {
        return await legacyHandshake(this.context, connection, {
          ...common,
          transport: 'streamable-http',
          http: legacyHttpHooks(transport),
        });
      } catch (error) {
        if (!refusedPost(error, connection)) throw error;
        scope.abandon(connection);
      }
    }
    const sse = await scope.start(
      scope.open(this.target.open(this.request('http+sse')), LEGACY_CANCEL),
    );
    return legacyHandshake(this.context, sse, { ...common, transport: 'http+sse' });
  }

  private request(kind: 'legacy' | 'http+sse'): HttpTransportRequest {
    return { kind, headerParams: this.options.headerParams };
  }
}

/**
 * Whether the legacy `initialize` POST was refused with 400/404/405: as an HTTP failure, or as
 * a JSON-RPC error carried by such a status. That is the sign of a 2024-11-05 HTTP+SSE server.
 */
function refusedPost(error: unknown, connection: RpcConnection): boolean {
  let status: unknown;
  if (error instanceof LocalError && error.code === LocalErrorCode.HttpError) {
    status = error.details?.status;
  } else if (error instanceof ProtocolError) {
    status = (connection.transport as ConnectPhaseTransport).lastErrorStatus;
  }
  return typeof status === 'number' && classifyLegacyInitializeStatus(status) === 'http+sse';
}

/** The legacy Streamable HTTP transport's version header and GET stream, when it has them. */
function legacyHttpHooks(transport: Transport): LegacySessionInit['http'] {
  const http = transport as Transport & {
    setProtocolVersion?: (version: string) => void;
    openEventStream?: () => Promise<void>;
  };
  const { setProtocolVersion, openEventStream } = http;
  if (typeof setProtocolVersion !== 'function') return undefined;
  return {
    setProtocolVersion: (version) => setProtocolVersion.call(http, version),
    ...(typeof openEventStream === 'function'
      ? { openEventStream: () => openEventStream.call(http) }
      : {}),
  };
}

/**
 * Sends the modern probe POST and reads it as `classifyHttpProbe` wants: the status next to the
 * JSON-RPC answer, the status of a refused POST, a timeout, or a network failure.
 */
async function probe(
  context: ConnectContext,
  connection: RpcConnection,
  version: string,
): Promise<{ observation: HttpProbeObservation; failure?: unknown }> {
  const { scope } = context;
  scope.phase = 'probe';
  try {
    const outcome = await connection.requestRaw(
      'server/discover',
      discoverParams(context, version),
      // No probe timeout of its own: over HTTP a timeout proves no era, and an authorization
      // (a login, perhaps in a browser) may run inside this request. The connect budget bounds it.
      { signal: scope.signal },
    );
    const status = outcome.context?.httpStatus ?? 200;
    const body =
      outcome.type === 'result'
        ? { jsonrpc: '2.0', result: outcome.result }
        : { jsonrpc: '2.0', error: outcome.error };
    return { observation: { type: 'response', status, body } };
  } catch (failure) {
    if (scope.signal.aborted) throw failure;
    if (failure instanceof LocalError) {
      const status = failure.details?.status;
      const statusCodes: string[] = [LocalErrorCode.HttpError, LocalErrorCode.Unauthorized];
      if (statusCodes.includes(failure.code) && typeof status === 'number') {
        return { observation: { type: 'response', status }, failure };
      }
      if (failure.code === LocalErrorCode.RequestTimeout) {
        return { observation: { type: 'timeout' }, failure };
      }
    }
    const message = messageOf(failure);
    return { observation: { type: 'network-error', message }, failure };
  }
}
