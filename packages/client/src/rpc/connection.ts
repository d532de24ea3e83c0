/**
 * JSON-RPC for a client over one `Transport`: integer ids from 0, one pending entry per request
 * that settles exactly once (response, timeout, abort, send failure or close), cancellation
 * by the connection's `CancelPolicy`, progress and listen-stream routing, and answers to the
 * server's own requests. Era logic lives in the sessions above it.
 */
import {
  createNotification,
  createRequest,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
  LocalError,
  LocalErrorCode,
  type MessageContext,
  ProtocolError,
  subscriptionIdOf,
  type Transport,
} from '@twofold/protocol/experimental';
import { asError } from '../util';
import { InboundRequests } from './inbound';
import { lostResponse } from './lost-response';
import { PendingRequest, PendingTable } from './pending';
import type { RpcConnectionOptions, RpcOutcome, RpcRequestOptions } from './types';
import { closedErrorFor, progressOf, withProgressToken } from './util';

type Handlers = Pick<RpcConnectionOptions, 'onRequest' | 'onNotification' | 'onError' | 'onClose'>;

// Transport errors that never end a connection (bad input), so they are never a close reason.
const NON_FATAL_CODES: ReadonlySet<string> = new Set([
  LocalErrorCode.InvalidMessage,
  LocalErrorCode.MessageTooLarge,
]);

/**
 * A client's JSON-RPC connection over one transport (see `RpcConnectionOptions`).
 *
 * @experimental
 */
export class RpcConnection {
  #transport: Transport;
  readonly #options: RpcConnectionOptions;
  readonly #handlers: Handlers;
  readonly #pending = new PendingTable();
  readonly #inbound: InboundRequests;
  #nextId = 0;
  #closed = false;
  #closeCalled = false;
  #closeNotified = false;
  /** Why the transport closed, when it was not `close()`. */
  #closeReason: Error | undefined;
  /** The last LocalError the transport reported since the last inbound message. */
  #recentTransportError: LocalError | undefined;
  #closing: Promise<void> | undefined;

  constructor(transport: Transport, options: RpcConnectionOptions) {
    this.#transport = transport;
    this.#options = options;
    const { onRequest, onNotification, onError, onClose } = options;
    this.#handlers = { onRequest, onNotification, onError, onClose };
    this.#inbound = new InboundRequests({
      handler: () => this.#handlers.onRequest,
      send: (message, relatedRequestId) => this.transport.send(message, { relatedRequestId }),
      report: (error) => this.#report(error),
      isClosed: () => this.#closed,
    });
    this.#bind(transport);
  }

  /** The transport this connection owns (its callbacks are set by the connection). */
  get transport(): Transport {
    return this.#transport;
  }

  /**
   * Continues on `inner`, the transport the current one wraps, which then leaves the chain:
   * from now on messages go straight between `inner` and this connection.
   */
  unwrapTransport(inner: Transport): void {
    this.#transport = inner;
    this.#bind(inner);
  }

  #bind(transport: Transport): void {
    transport.onmessage = (message, context) => this.#receive(message, context);
    transport.onerror = (error) => this.#transportError(error);
    transport.onclose = () => this.#transportClosed();
  }

  /** Whether `close()` was called or the transport has closed. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** Starts the transport. */
  start(): Promise<void> {
    return this.transport.start();
  }

  /** Replaces some of the handlers (a key present with `undefined` removes that handler). */
  setHandlers(handlers: Partial<Handlers>): void {
    if ('onRequest' in handlers) this.#handlers.onRequest = handlers.onRequest;
    if ('onNotification' in handlers) this.#handlers.onNotification = handlers.onNotification;
    if ('onError' in handlers) this.#handlers.onError = handlers.onError;
    if ('onClose' in handlers) this.#handlers.onClose = handlers.onClose;
  }

  /**
   * Sends a request and resolves with its result; an error response rejects with the matching
   * `ProtocolError` subclass, local failures with a `LocalError`.
   */
  request(
    method: string,
    params?: Record<string, unknown>,
    options: RpcRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const settle = (outcome: RpcOutcome) => {
        if (outcome.type === 'error') reject(ProtocolError.fromErrorObject(outcome.error));
        else resolve(outcome.result);
      };
      this.#send(method, params, options, settle, reject);
    });
  }

  /** Sends a request and resolves with the response as it arrived, error responses included. */
  requestRaw(
    method: string,
    params?: Record<string, unknown>,
    options: RpcRequestOptions = {},
  ): Promise<RpcOutcome> {
    return new Promise((resolve, reject) => this.#send(method, params, options, resolve, reject));
  }

  /** Sends one request; its response or failure goes to `resolve` or `reject`, once. */
  #send(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RpcRequestOptions,
    resolve: (outcome: RpcOutcome) => void,
    reject: (error: Error) => void,
  ): void {
    if (this.#closed) {
      reject(this.#closedError(`Request ${method}`));
      return;
    }
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(
        new LocalError(LocalErrorCode.RequestAborted, `Request ${method} was aborted`, {
          cause: signal.reason,
          details: { method },
        }),
      );
      return;
    }
    const id = this.#nextId++;
    const progressToken = onProgress === undefined ? undefined : `p${id}`;
    const resetTimeoutOnProgress = options.resetTimeoutOnProgress ?? false;
    const cancelOnWire = options.cancelOnWire ?? true;
    const { onAnswer } = options;
    const pending = new PendingRequest({
      id,
      method,
      timeoutMs: options.timeoutMs ?? this.#options.requestTimeoutMs,
      // Without resets the timeout is already a total limit; with them, a default cap applies.
      maxTotalTimeoutMs:
        options.maxTotalTimeoutMs ??
        (resetTimeoutOnProgress ? this.#options.maxTotalTimeoutMs : undefined),
      resetTimeoutOnProgress,
      signal,
      progressToken,
      onProgress,
      onTagged: options.onTagged,
      resolve:
        onAnswer === undefined
          ? resolve
          : (outcome) => {
              try {
                onAnswer(outcome);
              } finally {
                resolve(outcome);
              }
            },
      reject,
      onAbandon: (abandoned, _reason, message) => {
        if (cancelOnWire) this.#cancel(abandoned, message);
        else this.#pending.markAbandoned(abandoned.id);
      },
      onSettled: this.#onSettled,
    });
    this.#pending.add(pending);
    pending.arm();
    try {
      options.onSent?.(id);
    } catch (error) {
      pending.reject(asError(error));
      return;
    }
    const message = createRequest(id, method, withProgressToken(params, progressToken));
    const sendOptions = this.#options.cancel.abortExchange
      ? { signal: pending.exchange.signal }
      : undefined;
    this.transport.send(message, sendOptions).catch((error: unknown) => {
      // A closed transport calls onclose too (Transport rule 4), with the real reason (a
      // dead process, say): let that path settle the request instead of this generic error.
      if (error instanceof LocalError && error.code === LocalErrorCode.ConnectionClosed) return;
      pending.reject(asError(error));
    });
  }

  /** Drops a settled request from the table (one function for every request). */
  readonly #onSettled = (settled: PendingRequest) => this.#pending.remove(settled);

  /** Sends a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#closed) throw this.#closedError(`Notification ${method}`);
    await this.transport.send(createNotification(method, params));
  }

  /**
   * Closes the connection and its transport; pending requests reject with `CONNECTION_CLOSED`.
   * Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closeCalled = true;
    if (!this.#closed) {
      this.#closed = true;
      this.#failAll();
    }
    try {
      await this.transport.close();
    } catch (error) {
      this.#report(asError(error));
    }
    // In case the transport did not call onclose.
    this.#notifyClose(this.#closeReason);
  }

  /** A timed-out or aborted request: cancel it on the wire as the policy says. */
  #cancel(pending: PendingRequest, reason: string): void {
    this.#pending.markAbandoned(pending.id);
    const { abortExchange, notify } = this.#options.cancel;
    if (abortExchange) {
      pending.exchange.abort(new LocalError(LocalErrorCode.RequestAborted, reason));
    }
    if (notify && !this.#closed) {
      this.notify('notifications/cancelled', { requestId: pending.id, reason }).catch(
        (error: unknown) => {
          if (!this.#closed) this.#report(asError(error));
        },
      );
    }
  }

  #receive(message: JsonRpcMessage, context: MessageContext | undefined): void {
    if (this.#closed) return;
    this.#recentTransportError = undefined;
    if (isJsonRpcRequest(message)) void this.#inbound.handle(message);
    else if (isJsonRpcResponse(message)) this.#response(message, context);
    else this.#notification(message, context);
  }

  #response(message: JsonRpcResponse, context: MessageContext | undefined): void {
    const { id } = message;
    const pending = this.#pending.get(id);
    if (pending === undefined) {
      // A late answer to a request given up on is expected; anything else is the peer's fault.
      if (this.#pending.takeAbandoned(id)) return;
      if ('error' in message && (id === undefined || id === null)) {
        const cause = ProtocolError.fromErrorObject(message.error);
        this.#report(
          new LocalError(
            LocalErrorCode.InvalidMessage,
            `The server reported an error without a request id: ${cause.message}`,
            { cause, details: { error: message.error } },
          ),
        );
        return;
      }
      this.#report(
        new LocalError(
          LocalErrorCode.InvalidMessage,
          `The server sent a response for unknown or already answered request id ${JSON.stringify(id)}`,
          { details: { id } },
        ),
      );
      return;
    }
    pending.resolve(
      'result' in message
        ? { type: 'result', result: message.result, context }
        : { type: 'error', error: message.error, context },
    );
  }

  #notification(notification: JsonRpcNotification, context: MessageContext | undefined): void {
    const { method, params } = notification;
    if (method === 'notifications/progress') {
      // Progress is only ever for one of our requests; unknown tokens are dropped.
      const pending = this.#pending.byToken(params?.progressToken);
      const progress = progressOf(params);
      if (pending !== undefined && progress !== undefined) {
        this.#guard(() => pending.progress(progress));
      }
      return;
    }
    let target: PendingRequest | undefined;
    if (method === 'notifications/cancelled') {
      if (this.#inbound.cancel(params?.requestId, params?.reason)) return;
      target = this.#pending.get(params?.requestId);
    } else {
      target = this.#pending.get(subscriptionIdOf(params));
    }
    const onTagged = target?.onTagged;
    if (onTagged !== undefined) {
      this.#guard(() => onTagged(notification));
      return;
    }
    const onNotification = this.#handlers.onNotification;
    if (onNotification !== undefined) this.#guard(() => onNotification(notification, context));
  }

  #transportError(error: Error): void {
    const lost = error instanceof LocalError ? lostResponse(error, this.#pending) : undefined;
    if (lost !== undefined) {
      // Its response is gone: fail it now; should the response come after all, drop it.
      lost.pending.reject(lost.error);
      this.#pending.markAbandoned(lost.pending.id);
    }
    if (error instanceof LocalError && !NON_FATAL_CODES.has(error.code)) {
      this.#recentTransportError = error;
      // A dead process ends the connection: it is reported through onClose and the rejections.
      if (error.code === LocalErrorCode.ProcessExited) return;
    }
    this.#report(error);
  }

  #transportClosed(): void {
    const reason = this.#closeCalled
      ? undefined
      : (this.#recentTransportError ??
        new LocalError(LocalErrorCode.ConnectionClosed, 'The connection closed'));
    this.#recentTransportError = undefined;
    if (!this.#closed) {
      this.#closed = true;
      this.#closeReason = reason;
      this.#failAll();
    }
    this.#notifyClose(reason);
  }

  /** Rejects every pending request and aborts every running server-request handler. */
  #failAll(): void {
    for (const pending of this.#pending.all()) {
      pending.reject(this.#closedError(`Request ${pending.method}`));
    }
    this.#inbound.abortAll(this.#closedError('The server request'));
  }

  /** The error for work cut short by the close: the transport's own code when it gave one. */
  #closedError(what: string): LocalError {
    return closedErrorFor(what, this.#closeReason);
  }

  #notifyClose(reason: Error | undefined): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    const onClose = this.#handlers.onClose;
    if (onClose !== undefined) this.#guard(() => onClose(reason));
  }

  #guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.#report(asError(error));
    }
  }

  #report(error: Error): void {
    try {
      this.#handlers.onError?.(error);
    } catch {
      // A throwing error handler has nowhere left to report to.
    }
  }
}
