/**
 * The modern (2026-07-28) era session: stateless requests that each carry their own `_meta`
 * envelope, version renegotiation on -32022, results checked against the negotiated revision.
 */
import {
  buildRequestMeta,
  type ClientCapabilities,
  type DiscoverResult,
  ErrorCode,
  getWire,
  type Implementation,
  isModernVersion,
  isRecord,
  LocalError,
  LocalErrorCode,
  META_KEYS,
  MODERN_VERSIONS,
  ProtocolError,
  parseResult,
  selectMutualVersion,
  shallowCopy,
  TASKS_EXTENSION_ID,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';
import type { RpcConnection } from '../rpc/connection';
import {
  connectionOptions,
  type EraSession,
  type ModernSend,
  type SessionHooks,
  type SessionRequestOptions,
} from '../session/types';
import type { EraVerdict, ListenFilter, ListenOptions, ServerFacts } from '../types';
import { openModernListen } from './listen';
import { withRetries } from './retry';

/**
 * What a modern session is built from: a started connection and the server's discover result.
 */
export interface ModernSessionInit {
  connection: RpcConnection;
  hooks: SessionHooks;
  verdict: EraVerdict;
  discover: DiscoverResult;
}

/**
 * Builds the modern session on an open connection (era detection has already run
 * `server/discover`). Takes over the connection's handlers.
 */
export function createModernSession(init: ModernSessionInit): EraSession {
  const { connection, hooks } = init;
  let verdict: EraVerdict = { ...init.verdict, discover: init.discover };
  const facts = factsOf(init.discover);
  let closing = false;

  connection.setHandlers({
    // Modern servers never send requests: everything they need travels as input_required.
    onRequest: async (method) => {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    },
    onNotification: (notification) =>
      hooks.onNotification(notification.method, notification.params),
    onError: (error) =>
      hooks.onWarning({
        code: 'unexpected-message',
        message: error.message,
        ...(error instanceof LocalError && error.details ? { details: error.details } : {}),
      }),
    onClose: (error) => hooks.onClose(closing ? undefined : error),
  });

  const envelopeOf = (
    version: string,
    extensions: SessionRequestOptions['extensions'],
    trace: SessionRequestOptions['trace'],
  ) =>
    buildRequestMeta({
      protocolVersion: version,
      clientCapabilities: withExtensions(hooks.capabilities, extensions),
      clientInfo: hooks.clientInfo,
      ...(hooks.logLevel ? { logLevel: hooks.logLevel } : {}),
      ...((trace ?? hooks.trace) ? { trace: trace ?? hooks.trace } : {}),
    });
  // The envelope of a call without extensions or trace of its own is the same every time: built
  // once per version, and shared (nothing below changes a request's `_meta`; it copies it).
  let plainEnvelope: { version: string; meta: Record<string, unknown> } | undefined;
  const attempt = (
    version: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions,
  ) => {
    const { trace, meta, extensions } = options;
    let envelope: Record<string, unknown>;
    if (extensions === undefined && trace === undefined) {
      if (plainEnvelope?.version !== version) {
        plainEnvelope = { version, meta: envelopeOf(version, undefined, undefined) };
      }
      envelope = plainEnvelope.meta;
    } else envelope = envelopeOf(version, extensions, trace);
    const callerMeta = isRecord(params?._meta) ? params._meta : undefined;
    const own = meta === undefined && callerMeta === undefined;
    // A copy that is then extended, not a spread: see `shallowCopy`.
    const sent: Record<string, unknown> = params === undefined ? {} : shallowCopy(params);
    sent._meta = own ? envelope : Object.assign({}, envelope, meta, callerMeta);
    return connection.request(method, sent, connectionOptions(options, hooks.requestTimeoutMs));
  };

  /**
   * One attempt at the negotiated version, then `finish` on its result. A -32022 naming a
   * version both sides speak moves the session to it, with exactly one retry: a second -32022
   * goes to the caller as it is.
   */
  const sendVersioned = <T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions,
    finish: (version: string, result: Record<string, unknown>) => T,
  ): Promise<T> => {
    const version = verdict.protocolVersion;
    return attempt(version, method, params, options).then(
      (result) => finish(version, result),
      async (error: unknown) => {
        if (!(error instanceof UnsupportedProtocolVersionError)) throw error;
        const { supported } = error;
        const next = selectMutualVersion(supported, MODERN_VERSIONS);
        if (!next) {
          throw new LocalError(
            LocalErrorCode.NoMutualVersion,
            `${method}: the server supports none of our modern versions (it offers ${supported.join(', ') || 'none'})`,
            { cause: error, details: { supported, requested: version } },
          );
        }
        verdict = { ...verdict, protocolVersion: next };
        return finish(next, await attempt(next, method, params, options));
      },
    );
  };
  const send: ModernSend = (method, params, options) =>
    sendVersioned(method, params, options, (_, result) => result);

  const request = (
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions = {},
  ) => {
    // Asked only once an attempt failed: most requests never need to know.
    const repeatable = () => hooks.isRepeatable?.(method, params) ?? false;
    // A task stands in for the result only where the request declared the extension.
    const checked = (version: string, result: Record<string, unknown>) =>
      result.resultType === 'task' && options.extensions?.[TASKS_EXTENSION_ID]
        ? result
        : validate(version, method, result);
    return withRetries(hooks.retry, repeatable, options.signal, () =>
      sendVersioned(method, params, options, checked),
    );
  };

  return {
    get verdict() {
      return verdict;
    },
    facts,
    request,
    listen(filter: ListenFilter, options: ListenOptions = {}) {
      return openModernListen(
        { send, hooks, isClosing: () => closing, isDisconnected: () => connection.isClosed },
        filter,
        options,
      );
    },
    async ping(options = {}) {
      await request('server/discover', undefined, options);
    },
    async close() {
      closing = true;
      await connection.close();
    },
  };
}

/** The client's capabilities with a request's own extensions added. */
function withExtensions(
  capabilities: ClientCapabilities,
  extensions: Record<string, Record<string, unknown>> | undefined,
): ClientCapabilities {
  if (extensions === undefined) return capabilities;
  const declared = isRecord(capabilities.extensions) ? capabilities.extensions : {};
  return { ...capabilities, extensions: { ...declared, ...extensions } };
}

/**
 * Checks a result against the method's schema in `version` (methods the revision does not know
 * pass through). A missing `resultType` reads as `complete`; `input_required` passes where the
 * method allows it (the wire's result schema includes it), and is the caller's to run.
 */
function validate(
  version: string,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  if (!isModernVersion(version)) return result;
  const wire = getWire(version);
  const spec = wire.methods.get(method);
  if (spec?.kind !== 'request' || !spec.result) return result;
  const input = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const parsed = parseResult(wire, method, input);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** The facts a discover result states. */
function factsOf(discover: DiscoverResult): ServerFacts {
  const facts: ServerFacts = { capabilities: discover.capabilities ?? {} };
  if (typeof discover.instructions === 'string') facts.instructions = discover.instructions;
  const info = isRecord(discover._meta) ? discover._meta[META_KEYS.serverInfo] : undefined;
  if (isRecord(info)) facts.serverInfo = info as Implementation;
  return facts;
}
