/**
 * Which delivered requests still await their answer. The stdio server uses it when its input
 * ends: a peer that closed our stdin may still be reading stdout, so what it asked before is
 * answered before the channel closes.
 */

import type { JsonRpcMessage, RequestId } from '@twofold/protocol/experimental';
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  RequestIdMap,
} from '@twofold/protocol/experimental';

/** Request ids delivered and not yet answered (a count per id: a peer may reuse one). */
export class PendingAnswers {
  readonly #open = new RequestIdMap<number>();
  #onIdle: (() => void) | undefined;

  get size(): number {
    return this.#open.size;
  }

  /** A message was delivered: a request opens its id, a cancellation settles the one it names. */
  delivered(message: JsonRpcMessage): void {
    if (isJsonRpcRequest(message)) {
      this.#open.set(message.id, (this.#open.get(message.id) ?? 0) + 1);
    } else if (isJsonRpcNotification(message) && message.method === 'notifications/cancelled') {
      // A cancelled request gets no answer (the stdio cancellation rule of both eras).
      const requestId = message.params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#settle(requestId);
    }
  }

  /** A message was sent: a response settles its id. */
  sent(message: JsonRpcMessage): void {
    if (!isJsonRpcResponse(message) || message.id === undefined || message.id === null) return;
    this.#settle(message.id);
  }

  /** Runs `callback` once nothing is pending (at once when nothing is). */
  whenIdle(callback: () => void): void {
    if (this.#open.size === 0) callback();
    else this.#onIdle = callback;
  }

  #settle(id: RequestId): void {
    const count = this.#open.get(id);
    if (count === undefined) return;
    if (count > 1) this.#open.set(id, count - 1);
    else this.#open.delete(id);
    if (this.#open.size === 0 && this.#onIdle !== undefined) {
      const callback = this.#onIdle;
      this.#onIdle = undefined;
      callback();
    }
  }
}
