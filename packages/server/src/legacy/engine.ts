/**
 * The legacy session engine (2025-11-25, 2025-06-18, 2024-11-05): the `initialize` handshake,
 * the session's log level and resource subscriptions, change notifications, cancellation, and
 * the server's own requests to the client. One engine serves one session on one transport.
 */
import {
  type ClientCapabilities,
  createErrorResponse,
  createNotification,
  createResultResponse,
  ErrorCode,
  findMethod,
  getWire,
  type Implementation,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type LegacyVersion,
  LocalError,
  LocalErrorCode,
  type LoggingLevel,
  MCP_PROTOCOL_VERSION_HEADER,
  type MessageContext,
  ProtocolError,
  parseParams,
  RequestIdMap,
  readTraceContext,
  type ServerCapabilities,
  selectLegacyVersion,
  type Transport,
} from '@twofold/protocol/experimental';
import type { HttpMessageContext } from '@twofold/transports/http-server';
import type { AuthInfo } from '../auth/types';
import { toWireError } from '../core/error-mapping';
import { callExtensionMethod } from '../core/extension-methods';
import { HandlerContext } from '../core/handler-context';
import { instrumented, type RequestChannel } from '../core/instrumentation';
import { LazyAbort } from '../core/lazy-abort';
import { callOperation, isAdvertised, isOperationMethod } from '../core/operation-call';
import { createReporter } from '../core/reporting';
import { visibleHeaders } from '../core/request-headers';
import { offeredVersionList, type ServedServer } from '../core/served-server';
import { listenHubOf } from '../listen/hub';
import { inputResponseReader } from '../mrtr/input-responses';
import { withoutTasksExtension } from '../operations/task-capability';
import type { Change } from '../operations/types';
import { type LegacyRetry, runWithInputRounds } from './input-rounds';
import { type OutboundRequestOptions, OutboundRequests } from './outbound-requests';

/**
 * Options of a legacy session.
 *
 * @experimental
 */
export interface LegacyEngineOptions {
  /** One-shot HTTP sessions without `initialize`: the version comes from the request header. */
  stateless?: boolean | undefined;
  /** How long a server-to-client request waits for its answer (default 60 s). */
  requestTimeoutMs?: number | undefined;
  /**
   * The session's `context.auth` when its messages carry none of their own: what the host
   * established (stdio). Over HTTP each POST's verified token is used instead.
   */
  auth?: AuthInfo | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

interface Negotiated {
  version: LegacyVersion;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The server capabilities announced at initialize, fixed for the session. */
  capabilities: ServerCapabilities;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** One legacy session's protocol logic; the transport wiring lives with its caller. */
export class LegacyEngine {
  private negotiated: Negotiated | undefined;
  private initialized = false;
  private logLevel: LoggingLevel | undefined;
  /** Subscribed URIs, each with the release of its `watchResource` hint. */
  private readonly subscriptions = new Map<string, () => void>();
  private readonly inflight = new RequestIdMap<LazyAbort>();
  private readonly outbound: OutboundRequests;
  private unsubscribeChanges: (() => void) | undefined;
  private disposed = false;

  constructor(
    private readonly server: ServedServer,
    private readonly transport: Transport,
    private readonly options: LegacyEngineOptions = {},
  ) {
    this.outbound = new OutboundRequests(
      (message, sendOptions) => transport.send(message, sendOptions),
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
  }

  /** The negotiated version, once `initialize` has been answered. */
  get protocolVersion(): LegacyVersion | undefined {
    return this.negotiated?.version;
  }

  /** Sends a request to the client (after `notifications/initialized`) and awaits its result. */
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: OutboundRequestOptions,
  ): Promise<Record<string, unknown>> {
    if (!this.initialized && this.options.stateless !== true) {
      return Promise.reject(
        new LocalError(
          LocalErrorCode.NotConnected,
          `Cannot send ${method}: the client has not sent notifications/initialized`,
        ),
      );
    }
    return this.outbound.request(method, params, options);
  }

  /** Handles one inbound message of the session. */
  receive(message: JsonRpcMessage, context?: MessageContext): void {
    if (this.disposed) return;
    if (isJsonRpcRequest(message)) void this.answer(message, context);
    else if (!isJsonRpcResponse(message)) this.notified(message);
    else if (!this.outbound.settle(message)) {
      this.report(new Error(`Response to an unknown request id ${JSON.stringify(message.id)}`));
    }
  }

  /** Ends the session's work: cancels handlers, fails pending requests, stops notifications. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribeChanges?.();
    for (const release of this.subscriptions.values()) release();
    this.subscriptions.clear();
    for (const controller of this.inflight.values()) controller.abort();
    this.inflight.clear();
    this.outbound.closeAll();
  }

  private async answer(message: JsonRpcRequest, context: MessageContext | undefined) {
    const { id } = message;
    if (this.inflight.has(id)) {
      // Ids must not be reused while in flight; answering would confuse the two requests.
      this.report(new Error(`Duplicate request id ${JSON.stringify(id)} ignored`));
      return;
    }
    const cancel = new LazyAbort();
    this.inflight.set(id, cancel);
    const { instrumentation } = this.server.options;
    const respond = () => this.respond(message, context, cancel);
    let response: JsonRpcResponse;
    try {
      response = await (instrumentation === undefined
        ? respond()
        : instrumented(instrumentation, message, this.channel(context), respond));
    } finally {
      this.inflight.delete(id);
    }
    // A cancelled request gets no response (legacy cancellation rule), nor one after close.
    if (cancel.aborted || this.disposed) return;
    await this.transport.send(response, { relatedRequestId: id }).catch((error: unknown) => {
      this.report(error);
    });
  }

  private channel(context: MessageContext | undefined): RequestChannel {
    return {
      era: 'legacy',
      protocolVersion: this.negotiated?.version,
      sessionId: this.transport.sessionId,
      headers: context?.headers,
    };
  }

  /** The response to `message` (an error response when its handling fails). */
  private async respond(
    message: JsonRpcRequest,
    context: MessageContext | undefined,
    cancel: LazyAbort,
  ): Promise<JsonRpcResponse> {
    let answered = false;
    try {
      const result = await this.dispatch(message, context, cancel, () => !answered);
      return createResultResponse(message.id, result);
    } catch (error) {
      return createErrorResponse(
        message.id,
        toWireError(error, 'legacy', message.method, this.options.onerror),
      );
    } finally {
      answered = true;
    }
  }

  private async dispatch(
    message: JsonRpcRequest,
    context: MessageContext | undefined,
    cancel: LazyAbort,
    live: () => boolean,
  ): Promise<Record<string, unknown>> {
    const { id, method, params } = message;
    if (method === 'ping') return {};
    if (method === 'initialize') return this.initialize(params);
    const session = this.negotiated ?? this.statelessSession(context);
    const extension = this.server.extensionMethod?.(method);
    if (extension !== undefined) {
      return (await callExtensionMethod(extension, params, { modern: false })).result;
    }
    const spec = findMethod(session.version, method);
    const known = spec?.kind === 'request' && spec.sender !== 'server';
    if (!known || !isServed(method, session.capabilities)) {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const parsed = parseParams(getWire(session.version), method, params);
    if (!parsed.ok) throw parsed.error;
    const p = parsed.value ?? {};
    switch (method) {
      case 'logging/setLevel':
        this.logLevel = p.level as LoggingLevel;
        return {};
      case 'resources/subscribe':
        this.subscribe(p.uri as string);
        return {};
      case 'resources/unsubscribe':
        this.subscriptions.get(p.uri as string)?.();
        this.subscriptions.delete(p.uri as string);
        return {};
    }
    const meta = p._meta as Record<string, unknown> | undefined;
    const token = meta?.progressToken;
    const reporter = createReporter({
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      logLevel: () => this.logLevel,
      live: () => live() && !cancel.aborted,
      notify: (notification) => this.transport.send(notification, { relatedRequestId: id }),
    });
    const headers = visibleHeaders(context?.headers);
    // Per POST over HTTP: a token refreshed mid-session is seen by the next request.
    const granted = (context as HttpMessageContext | undefined)?.auth as AuthInfo | undefined;
    const closeSseStream = (context as HttpMessageContext | undefined)?.closeStream;
    const auth = granted ?? this.options.auth;
    // The signal is made on first read: most handlers never look at it.
    const contextFor = ({ inputResponses, state, asked }: LegacyRetry) =>
      new HandlerContext(
        {
          era: 'legacy',
          protocolVersion: session.version,
          requestId: id,
          clientCapabilities: session.clientCapabilities,
          clientInfo: session.clientInfo,
          sessionId: this.transport.sessionId,
          trace: readTraceContext(meta),
          auth,
          headers,
          closeSseStream,
          inputResponses,
          inputResponse: inputResponseReader(session.version, inputResponses, asked),
          state,
        },
        reporter,
        cancel,
      );
    return runWithInputRounds(
      (retry) => callOperation(this.server.operations, method, p, contextFor(retry)),
      (request) =>
        this.outbound.request(request.method, request.params, {
          signal: cancel.signal,
          relatedRequestId: id,
        }),
      session.clientCapabilities,
    );
  }

  private initialize(params: Record<string, unknown> | undefined): Record<string, unknown> {
    if (this.negotiated !== undefined) {
      throw new ProtocolError(ErrorCode.InvalidRequest, 'The session is already initialized');
    }
    const offered = this.server.offeredVersions.legacy;
    if (offered.length === 0) {
      // A modern-only server names its versions: a legacy client cannot fall forward itself.
      throw new ProtocolError(ErrorCode.InvalidParams, 'This server offers no legacy version', {
        supported: offeredVersionList(this.server),
        requested: String(params?.protocolVersion ?? ''),
      });
    }
    const version = selectLegacyVersion(params?.protocolVersion, offered);
    const parsed = parseParams(getWire(version), 'initialize', params);
    if (!parsed.ok) throw parsed.error;
    const p = parsed.value ?? {};
    const capabilities = withoutTasksExtension(this.server.operations.capabilities());
    this.negotiated = {
      version,
      clientCapabilities: (p.capabilities ?? {}) as ClientCapabilities,
      clientInfo: p.clientInfo as Implementation | undefined,
      capabilities,
    };
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities,
      serverInfo: this.server.serverInfo,
    };
    if (this.server.instructions !== undefined) result.instructions = this.server.instructions;
    return result;
  }

  /** A one-shot stateless request: the version its header names, else the newest offered. */
  private statelessSession(context: MessageContext | undefined): Negotiated {
    if (this.options.stateless !== true) {
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        'The session is not initialized: send initialize first',
      );
    }
    return {
      version: selectLegacyVersion(
        context?.headers?.[MCP_PROTOCOL_VERSION_HEADER.toLowerCase()],
        this.server.offeredVersions.legacy,
      ),
      clientCapabilities: {},
      clientInfo: undefined,
      capabilities: withoutTasksExtension(this.server.operations.capabilities()),
    };
  }

  private notified(message: JsonRpcNotification): void {
    switch (message.method) {
      case 'notifications/initialized':
        if (this.negotiated === undefined || this.initialized) return;
        this.initialized = true;
        if (this.options.stateless !== true) {
          // The shared bus, when there is one: changes made on other replicas reach the session.
          this.unsubscribeChanges = listenHubOf(this.server).onChange((change) =>
            this.announce(change),
          );
        }
        return;
      case 'notifications/cancelled': {
        const requestId = message.params?.requestId;
        if (typeof requestId === 'string' || typeof requestId === 'number') {
          this.inflight.get(requestId)?.abort();
        }
        return;
      }
      default:
        // roots/list_changed and the rest: nothing this server keeps depends on them.
        return;
    }
  }

  private subscribe(uri: string): void {
    if (this.subscriptions.has(uri)) return;
    this.subscriptions.set(uri, this.server.operations.watchResource?.(uri) ?? (() => {}));
  }

  /** Forwards a change as the session's capabilities allow. */
  private announce(change: Change): void {
    const capabilities = this.negotiated?.capabilities ?? {};
    let notification: JsonRpcNotification | undefined;
    if (change.kind === 'resource-updated') {
      if (this.subscriptions.has(change.uri)) {
        notification = createNotification('notifications/resources/updated', { uri: change.uri });
      }
    } else if (capabilities[change.kind]?.listChanged === true) {
      notification = createNotification(`notifications/${change.kind}/list_changed`);
    }
    if (notification === undefined) return;
    this.transport.send(notification).catch((error: unknown) => this.report(error));
  }

  private report(error: unknown): void {
    this.options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Whether this session serves `method` (besides ping and initialize) with these capabilities. */
function isServed(method: string, capabilities: ServerCapabilities): boolean {
  if (isOperationMethod(method)) return isAdvertised(method, capabilities);
  if (method === 'logging/setLevel') return true;
  if (method === 'resources/subscribe' || method === 'resources/unsubscribe') {
    return capabilities.resources?.subscribe === true;
  }
  // tasks/* and anything else this server does not offer.
  return false;
}
