/**
 * What serving one modern request needs from its channel, shared by the modern dispatcher and
 * the listens it hands on. Each entry point (HTTP, a transport) builds one per request.
 */
import type { JsonRpcNotification } from '@twofold/protocol/experimental';
import type { AuthInfo } from '../auth/types';

/**
 * The channel a modern request is served over: HTTP (one exchange) and stdio both fit.
 *
 * @experimental
 */
export interface ModernIo {
  /** Aborted when the client cancels or goes away; becomes the handler's `signal`. */
  readonly signal: AbortSignal;
  /**
   * Whether `signal` is aborted, for a channel that makes its signal only when someone reads it
   * (an `AbortSignal` costs more than most requests): the dispatcher asks this instead.
   */
  readonly aborted?: boolean;
  /** Sends a notification about this request (progress, log) before its response. */
  notify(notification: JsonRpcNotification): Promise<void>;
  /** Receives unexpected failures, whose details never go on the wire. */
  onerror?: ((error: Error) => void) | undefined;
  /**
   * Aborted when the server ends the channel on its own (shutting down): an open
   * `subscriptions/listen` then ends gracefully, answered with its final result.
   */
  readonly shutdown?: AbortSignal | undefined;
  /** What the request's credentials grant (`context.auth`). */
  readonly auth?: AuthInfo | undefined;
  /** The HTTP request's headers, credentials withheld (`context.headers`); none off HTTP. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}
