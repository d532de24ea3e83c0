/**
 * The contract of `RpcConnection`: JSON-RPC over one `Transport` for a client — ids, pending
 * requests with timeouts and cancellation, progress routing, listen-stream routing, and answers
 * to the server's own requests. It knows nothing of eras; the sessions above it do.
 */
import type {
  ErrorObject,
  JsonRpcNotification,
  MessageContext,
  RequestId,
} from '@twofold/protocol/experimental';
import type { Progress } from '../types';

/** How an abandoned request is cancelled on this connection. */
export interface CancelPolicy {
  /** Send `notifications/cancelled` (stdio, legacy HTTP). */
  notify: boolean;
  /** Abort the request's own exchange through `send({ signal })` (modern HTTP: closing it is the cancel). */
  abortExchange: boolean;
}

/** Options of one request. */
export interface RpcRequestOptions {
  signal?: AbortSignal | undefined;
  /** Default: the connection's `requestTimeoutMs`. `0` or `Infinity`: no timeout. */
  timeoutMs?: number | undefined;
  /** Progress for this request: the connection puts a fresh `progressToken` into `params._meta`. */
  onProgress?: ((progress: Progress) => void) | undefined;
  resetTimeoutOnProgress?: boolean | undefined;
  /**
   * Hard limit on the request's whole life, whatever progress does. Default: the connection's
   * `maxTotalTimeoutMs` when progress resets the timeout, else none (the timeout is the limit).
   * `0` or `Infinity`: none.
   */
  maxTotalTimeoutMs?: number | undefined;
  /**
   * Whether giving the request up (timeout, abort) cancels it on the wire as the connection's
   * `CancelPolicy` says. Default true. `false`: nothing is sent and the late answer is dropped
   * quietly — for era detection, where `initialize` must never be cancelled and a probe that
   * lost the race is simply forgotten.
   */
  cancelOnWire?: boolean | undefined;
  /**
   * Listen streams: notifications whose `_meta["io.modelcontextprotocol/subscriptionId"]` equals
   * this request's id, and a server `notifications/cancelled` naming it, go here (and nowhere
   * else) while the request is pending.
   */
  onTagged?: ((notification: JsonRpcNotification) => void) | undefined;
  /** Called once the id is assigned and the request is about to be sent. */
  onSent?: ((id: RequestId) => void) | undefined;
  /**
   * Called synchronously when the response is delivered, before the returned promise settles:
   * what a caller records here is visible to any response read after it (era probes compare
   * the order of answers).
   */
  onAnswer?: ((outcome: RpcOutcome) => void) | undefined;
}

/** A response as it arrived, for callers that judge errors themselves (era probes). */
export type RpcOutcome =
  | { type: 'result'; result: Record<string, unknown>; context: MessageContext | undefined }
  | { type: 'error'; error: ErrorObject; context: MessageContext | undefined };

/** Answers one server-to-client request; throw a `ProtocolError` to choose the error code. */
export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
  context: { id: RequestId; signal: AbortSignal },
) => Promise<Record<string, unknown>>;

/** Options of `RpcConnection`. */
export interface RpcConnectionOptions {
  requestTimeoutMs: number;
  /**
   * The hard limit of requests whose progress resets their timeout (a server that reports
   * progress forever must not hold a call forever). Default: none. `0` or `Infinity`: none.
   */
  maxTotalTimeoutMs?: number | undefined;
  cancel: CancelPolicy;
  /** Server-to-client requests; without it every one is answered -32601. */
  onRequest?: ServerRequestHandler;
  /** Notifications not consumed by progress or listen routing. */
  onNotification?: (notification: JsonRpcNotification, context?: MessageContext) => void;
  /** Peer misbehaviour and transport errors that do not end the connection. */
  onError?: (error: Error) => void;
  /** Called once when the transport has closed; `error` is why, when it was not `close()`. */
  onClose?: (error: Error | undefined) => void;
}
