/**
 * Server-to-client requests of a legacy session (sampling, elicitation, roots, ping): their own
 * id sequence, a timeout, answers matched by id, cancellation sent to the client on abort.
 */
import {
  createNotification,
  createRequest,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcResultResponse,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  type RequestId,
  RequestIdMap,
  type TransportSendOptions,
} from '@twofold/protocol/experimental';

/**
 * Options of one server-to-client request.
 *
 * @experimental
 */
export interface OutboundRequestOptions {
  /** Stops waiting and tells the client (`notifications/cancelled`). */
  signal?: AbortSignal | undefined;
  /** Default: the session's `requestTimeoutMs`. */
  timeoutMs?: number | undefined;
  /** The client request this one serves (HTTP: sent on that request's stream). */
  relatedRequestId?: RequestId | undefined;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Send = (message: JsonRpcMessage, options?: TransportSendOptions) => Promise<void>;

/** Tracks the server's own requests on one session. */
export class OutboundRequests {
  private nextId = 0;
  private readonly pending = new RequestIdMap<Pending>();

  constructor(
    private readonly send: Send,
    private readonly defaultTimeoutMs: number,
  ) {}

  /** Sends a request and resolves with the client's result (rejects with its error). */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutboundRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const { signal, relatedRequestId } = options;
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(aborted(method));
        return;
      }
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const giveUp = (error: Error) => {
        settle();
        reject(error);
        const cancel = createNotification('notifications/cancelled', {
          requestId: id,
          reason: error.message,
        });
        this.send(cancel, { relatedRequestId }).catch(() => undefined);
      };
      const onAbort = () => giveUp(aborted(method));
      const timer = setTimeout(
        () =>
          giveUp(
            new LocalError(
              LocalErrorCode.RequestTimeout,
              `${method} timed out after ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.send(createRequest(id, method, params), { relatedRequestId }).catch((error: unknown) => {
        this.pending.get(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Delivers a client response; false when no request of ours has its id. */
  settle(response: JsonRpcResultResponse | JsonRpcErrorResponse): boolean {
    const pending = response.id == null ? undefined : this.pending.get(response.id);
    if (pending === undefined) return false;
    if ('result' in response) pending.resolve(response.result);
    else pending.reject(ProtocolError.fromErrorObject(response.error));
    return true;
  }

  /** Fails every request still waiting (the session closed). */
  closeAll(): void {
    const error = new LocalError(LocalErrorCode.ConnectionClosed, 'The session closed');
    for (const pending of [...this.pending.values()]) pending.reject(error);
  }
}

function aborted(method: string): LocalError {
  return new LocalError(LocalErrorCode.RequestAborted, `${method} was cancelled`);
}
