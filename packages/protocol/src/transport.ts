/**
 * The contract every twofold transport implements (stdio, Streamable HTTP, in-memory, and
 * third-party ones). Types only; `@twofold/transports` ships a contract test suite that checks
 * the rules below on any implementation.
 *
 * Rules the types cannot express:
 * 1. `start()` is called once, before any `send()`; a second call rejects.
 * 2. `send()` resolves when the message has been handed to the underlying channel (including
 *    waiting for backpressure to clear), and rejects with a `LocalError` (`NOT_CONNECTED` before
 *    start, `CONNECTION_CLOSED` after close) instead of dropping the message silently.
 * 3. Messages are delivered to `onmessage` in the order they were received, one call each, and
 *    only when they are valid JSON-RPC envelopes (see `decodeMessage`). Input that is not
 *    (unparsable text, an oversized message) is reported through `onerror` and never closes
 *    the connection by itself.
 * 4. `onclose` is called exactly once, whether the peer or this side closed, and no callback
 *    runs after it. `close()` is idempotent and resolves after `onclose` has run.
 * 5. A transport never writes JSON-RPC error codes itself: wire errors come from the layer
 *    above; transport failures are `LocalError`s.
 */
import type { JsonRpcMessage } from './jsonrpc';
import type { RequestId } from './types';

/**
 * Options of one `send()` call. Transport-specific options belong to the transport's constructor.
 *
 * @experimental
 */
export interface TransportSendOptions {
  /**
   * The inbound request this message answers or reports on. Transports with one stream per
   * request (Streamable HTTP) route the message to that request's stream.
   */
  relatedRequestId?: RequestId;
  /** Aborts sending (for transports where sending can wait, e.g. on backpressure). */
  signal?: AbortSignal;
}

/**
 * Context a transport attaches to an inbound message.
 *
 * @experimental
 */
export interface MessageContext {
  /** HTTP request headers (lower-case names), when the message came over HTTP. */
  headers?: Readonly<Record<string, string>>;
  /** The legacy session the message belongs to, when there is one. */
  sessionId?: string;
  /**
   * The HTTP status of the response that carried this message (client side). A dual-era client
   * needs it: a JSON-RPC error in a 400 or 404 is era evidence, the same error in a 200 is not.
   */
  httpStatus?: number;
  /** Aborted when the peer stops waiting for this request (e.g. the HTTP stream closed). */
  signal?: AbortSignal;
}

/**
 * A bidirectional channel for JSON-RPC messages.
 *
 * @experimental
 */
export interface Transport {
  /** Opens the channel (spawns the process, connects, starts reading). */
  start(): Promise<void>;
  /** Sends one message. */
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void>;
  /** Closes the channel and releases its resources. */
  close(): Promise<void>;
  /** Receives each valid inbound message. */
  onmessage?: (message: JsonRpcMessage, context?: MessageContext) => void;
  /** Receives errors that do not close the channel (bad input, failed sends). */
  onerror?: (error: Error) => void;
  /** Called once when the channel has closed. */
  onclose?: () => void;
  /** The legacy session id, for transports that have sessions. */
  readonly sessionId?: string | undefined;
}
