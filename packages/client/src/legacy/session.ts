/**
 * A legacy (`initialize`-based) session: one handshake, then requests in the negotiated
 * revision, the server's own requests answered through the client's input handlers, and
 * `listen` built from `resources/subscribe` and list-changed notifications.
 */
import {
  buildRequestMeta,
  ErrorCode,
  getWire,
  type JsonRpcNotification,
  LocalError,
  LocalErrorCode,
  META_KEYS,
  ProtocolError,
  parseParams,
  parseResult,
  type RequestId,
  type TraceContext,
  type Wire,
} from '@twofold/protocol/experimental';
import type { RpcConnection } from '../rpc/connection';
import {
  connectionOptions,
  type EraSession,
  type SessionHooks,
  type SessionRequestOptions,
} from '../session/types';
import type {
  ChangeStream,
  EraVerdict,
  ListenFilter,
  ListenOptions,
  ServerFacts,
  TransportKind,
} from '../types';
import { messageOf } from '../util';
import { type HandshakeOutcome, initialize, ModernServerError } from './handshake';
import { closedError, LegacyListens } from './listen';

export { ModernServerError };

/**
 * What a legacy session starts from.
 *
 * @experimental
 */
export interface LegacySessionInit {
  /** A started connection (it may have carried an era probe already). */
  connection: RpcConnection;
  hooks: SessionHooks;
  serverKey: string;
  transport: TransportKind;
  /** Version to offer (pinned or learned); default LATEST_LEGACY_VERSION. */
  version?: string | undefined;
  /** Exact match required (a pin). */
  pinned?: boolean | undefined;
  /** HTTP: after initialize, set the negotiated version header and open the GET stream. */
  http?:
    | { setProtocolVersion(version: string): void; openEventStream?(): Promise<void> }
    | undefined;
  /** What the verdict rests on (see `EraVerdict.reachedBy`); default `answer`. */
  reachedBy?: EraVerdict['reachedBy'];
}

/** Server-to-client requests answered by the client's input handlers. */
const INPUT_METHODS: ReadonlySet<string> = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

/** The trace keys of `_meta` (legacy servers ignore what they do not know). */
const TRACE_KEYS: readonly string[] = [
  META_KEYS.traceparent,
  META_KEYS.tracestate,
  META_KEYS.baggage,
];

/**
 * Runs the legacy handshake on `init.connection` and returns the session. Rejects with
 * `ModernServerError` (connection left open) when `initialize` is refused by a modern server,
 * `NO_MUTUAL_VERSION` when the server answers a version we cannot use; on every failure but
 * `ModernServerError` the connection is closed.
 *
 * @experimental
 */
export async function startLegacySession(init: LegacySessionInit): Promise<EraSession> {
  routeEarly(init.connection, init.hooks);
  const outcome = await initialize(init.connection, init.hooks, init);
  return completeLegacySession(init, outcome);
}

/** Handlers for the time before the `initialize` answer: the server may ping (or log) already. */
export function routeEarly(connection: RpcConnection, hooks: SessionHooks): void {
  const early = new EarlyRouting(hooks);
  connection.setHandlers({
    onRequest: (method) => early.answer(method),
    onNotification: (n) => early.notification(n),
    onError: (error) => reportError(hooks, error),
  });
}

/**
 * The legacy session after a successful `initialize` (`outcome`): `notifications/initialized`,
 * the log level, then the session owns the connection. Failures close the connection.
 */
export async function completeLegacySession(
  init: LegacySessionInit,
  outcome: HandshakeOutcome,
): Promise<EraSession> {
  const { connection } = init;
  const session = new LegacySession(init, outcome);
  session.attach();
  try {
    await session.finishHandshake(init);
  } catch (error) {
    await connection.close();
    throw error;
  }
  session.watchClose();
  if (connection.isClosed) {
    throw new LocalError(
      LocalErrorCode.ConnectionClosed,
      'The connection closed during initialize',
    );
  }
  return session;
}

/** A running legacy session. */
class LegacySession implements EraSession {
  readonly verdict: EraVerdict;
  readonly facts: ServerFacts;
  private readonly connection: RpcConnection;
  private readonly hooks: SessionHooks;
  private readonly wire: Wire;
  private readonly listens: LegacyListens;
  private readonly init: LegacySessionInit;
  /** The session id the handshake got (HTTP with sessions): such a session can be renewed. */
  private renewable = false;
  private renewing: Promise<void> | undefined;
  private closing = false;

  constructor(init: LegacySessionInit, outcome: HandshakeOutcome) {
    this.init = init;
    this.connection = init.connection;
    this.hooks = init.hooks;
    this.wire = getWire(outcome.protocolVersion);
    const { result } = outcome;
    this.facts = {
      serverInfo: result.serverInfo,
      capabilities: result.capabilities,
      ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
    };
    this.verdict = {
      era: 'legacy',
      protocolVersion: outcome.protocolVersion,
      transport: init.transport,
      serverKey: init.serverKey,
      reachedBy: init.reachedBy ?? 'answer',
    };
    this.listens = new LegacyListens(this.connection, this.hooks, result.capabilities);
  }

  get sessionId(): string | undefined {
    return this.connection.transport.sessionId;
  }

  /** `notifications/initialized`, the HTTP version header, the GET stream started, the log level. */
  async finishHandshake(init: LegacySessionInit): Promise<void> {
    // The version header belongs on every request after initialize, this notification too.
    init.http?.setProtocolVersion(this.verdict.protocolVersion);
    await this.connection.notify('notifications/initialized');
    const openEventStream = init.http?.openEventStream?.bind(init.http);
    if (openEventStream !== undefined) this.openEventStream(openEventStream);
    this.renewable = this.sessionId !== undefined;
    const level = this.hooks.logLevel;
    if (level !== undefined && this.facts.capabilities.logging !== undefined) {
      await this.connection
        .request('logging/setLevel', { level }, { timeoutMs: this.hooks.requestTimeoutMs })
        .catch((error: unknown) => {
          if (this.connection.isClosed) throw error;
          this.hooks.onWarning({
            code: 'unexpected-message',
            message: `logging/setLevel ${level} failed: ${messageOf(error)}`,
          });
        });
    }
  }

  /**
   * Opens the GET stream in the background: the session is usable without it (the server queues
   * what it would send there), and some servers answer a GET only once they have something to
   * write. A failure is a warning, except once the session is closing.
   */
  private openEventStream(open: () => Promise<void>): void {
    open().catch((error: unknown) => {
      if (this.closing || this.connection.isClosed) return;
      this.hooks.onWarning({
        code: 'unexpected-message',
        message: `The server's event stream could not be opened: ${messageOf(error)}`,
      });
    });
  }

  /** Takes over the connection's server requests and notifications. */
  attach(): void {
    this.connection.setHandlers({
      onRequest: (method, params, context) => this.answer(method, params, context),
      onNotification: (notification) => this.notification(notification),
      onError: (error) => reportError(this.hooks, error),
    });
  }

  /** From now on the end of the connection ends the session (and its listens). */
  watchClose(): void {
    this.connection.setHandlers({
      onClose: (error) => {
        if (this.closing) this.listens.finishAll();
        else this.listens.finishAll(closedError(error));
        this.hooks.onClose(error);
      },
    });
  }

  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const send = () =>
      this.connection.request(
        method,
        withMeta(params, options, this.hooks),
        connectionOptions(options, this.hooks.requestTimeoutMs),
      );
    // Wait for a renewal under way, or start one for a session the transport found gone (404)
    // on another exchange, its GET stream say: sent now, the request would carry no session.
    if (this.renewable && (this.renewing || this.sessionId === undefined)) await this.renew();
    const sentWith = this.sessionId;
    let result: Record<string, unknown>;
    try {
      result = await send();
    } catch (error) {
      // 404: the server never ran the request, so it goes again in a new session (one that
      // another request may have started already).
      if (!this.renewable || !isSessionExpired(error)) throw error;
      if (this.sessionId === undefined || this.sessionId === sentWith) await this.renew();
      result = await send();
    }
    if (!this.wire.methods.get(method)?.result) return result;
    const parsed = parseResult(this.wire, method, result);
    if (!parsed.ok) throw parsed.error;
    return parsed.value;
  }

  listen(filter: ListenFilter, options?: ListenOptions): ChangeStream {
    return this.listens.listen(filter, options);
  }

  /**
   * A new session after the server forgot this one (a restarted or replaced replica), as the
   * legacy revisions require: `initialize` in the negotiated version, the GET stream, the log
   * level and the resource subscriptions again. Concurrent callers share one renewal.
   */
  private renew(): Promise<void> {
    this.renewing ??= this.reinitialize().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async reinitialize(): Promise<void> {
    const version = this.verdict.protocolVersion;
    await initialize(this.connection, this.hooks, { version, pinned: true, keepOpen: true });
    await this.finishHandshake(this.init);
    this.listens.renewSubscriptions();
    this.hooks.onWarning({
      code: 'session-renewed',
      message: 'The server no longer knew the session (HTTP 404); a new session was started',
      details: { sessionId: this.sessionId },
    });
  }

  async ping(options: SessionRequestOptions = {}): Promise<void> {
    await this.connection.request(
      'ping',
      withMeta(undefined, options, this.hooks),
      connectionOptions(options, this.hooks.requestTimeoutMs),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.connection.close();
  }

  private async answer(
    method: string,
    params: Record<string, unknown> | undefined,
    context: { id: RequestId; signal: AbortSignal },
  ): Promise<Record<string, unknown>> {
    if (method === 'ping') return {};
    if (!INPUT_METHODS.has(method)) throw methodNotFound(method);
    // Unknown to the negotiated revision → -32601; malformed → -32602.
    const checked = parseParams(this.wire, method, params);
    if (!checked.ok) throw checked.error;
    return this.hooks.answerInput(method, params, { signal: context.signal, era: 'legacy' });
  }

  private notification(notification: JsonRpcNotification): void {
    const params = notification.params as Record<string, unknown> | undefined;
    this.listens.deliver(notification.method, params);
    this.hooks.onNotification(notification.method, params);
  }
}

/** Routing before the session exists: only `ping` is answered. */
class EarlyRouting {
  constructor(private readonly hooks: SessionHooks) {}

  async answer(method: string): Promise<Record<string, unknown>> {
    if (method === 'ping') return {};
    throw methodNotFound(method);
  }

  notification(notification: JsonRpcNotification): void {
    this.hooks.onNotification(
      notification.method,
      notification.params as Record<string, unknown> | undefined,
    );
  }
}

function isSessionExpired(error: unknown): boolean {
  return error instanceof LocalError && error.code === LocalErrorCode.SessionExpired;
}

function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** Copies `params` with the call's extra `_meta` and trace entries (never mutating them). */
function withMeta(
  params: Record<string, unknown> | undefined,
  options: SessionRequestOptions,
  hooks: SessionHooks,
): Record<string, unknown> | undefined {
  const trace = traceMeta(options.trace ?? hooks.trace);
  if (options.meta === undefined && trace === undefined) return params;
  const own = params?._meta;
  const meta = {
    ...trace,
    ...options.meta,
    ...(typeof own === 'object' && own !== null ? own : {}),
  };
  return { ...params, _meta: meta };
}

function traceMeta(trace: TraceContext | undefined): Record<string, unknown> | undefined {
  if (trace === undefined) return undefined;
  // buildRequestMeta validates the traceparent; only its trace entries are kept.
  const built = buildRequestMeta({
    protocolVersion: '',
    clientCapabilities: {},
    trace,
  });
  const entries = Object.entries(built).filter(([key]) => TRACE_KEYS.includes(key));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function reportError(hooks: SessionHooks, error: Error): void {
  hooks.onWarning({ code: 'unexpected-message', message: error.message });
}
