/**
 * The server's own requests to this client: each runs its handler with an abort signal, and its
 * answer is sent unless the server cancelled it (or the connection closed) in the meantime.
 */
import {
  createErrorResponse,
  createResultResponse,
  ErrorCode,
  type ErrorObject,
  isRecord,
  type JsonRpcMessage,
  type JsonRpcRequest,
  LocalError,
  LocalErrorCode,
  ProtocolError,
  type RequestId,
  RequestIdMap,
} from '@twofold/protocol/experimental';
import { asError } from '../util';
import type { ServerRequestHandler } from './types';

/** What {@link InboundRequests} needs from its connection. */
export interface InboundHost {
  handler(): ServerRequestHandler | undefined;
  send(message: JsonRpcMessage, relatedRequestId: RequestId): Promise<void>;
  report(error: Error): void;
  isClosed(): boolean;
}

/** The server requests being answered on one connection. */
export class InboundRequests {
  readonly #host: InboundHost;
  readonly #running = new RequestIdMap<AbortController>();

  constructor(host: InboundHost) {
    this.#host = host;
  }

  /** Runs the handler for one server request and sends its answer. */
  async handle(request: JsonRpcRequest): Promise<void> {
    const { id, method, params } = request;
    if (this.#running.has(id)) {
      this.#host.report(
        new LocalError(
          LocalErrorCode.InvalidMessage,
          `The server reused request id ${JSON.stringify(id)} (${method}) while it was still running`,
          { details: { id, method } },
        ),
      );
      return;
    }
    const controller = new AbortController();
    this.#running.set(id, controller);
    let answer: JsonRpcMessage;
    try {
      answer = createResultResponse(id, await this.#run(method, params, id, controller.signal));
    } catch (error) {
      answer = createErrorResponse(id, errorObjectOf(error));
    } finally {
      if (this.#running.get(id) === controller) this.#running.delete(id);
    }
    // A cancelled request gets no answer (the server has stopped waiting for it).
    if (controller.signal.aborted || this.#host.isClosed()) return;
    try {
      await this.#host.send(answer, id);
    } catch (error) {
      if (!this.#host.isClosed()) this.#host.report(asError(error));
    }
  }

  /** The server cancelled one of its requests: abort its handler. Returns whether it was ours. */
  cancel(id: unknown, reason: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const controller = this.#running.get(id);
    if (controller === undefined) return false;
    this.#running.delete(id);
    controller.abort(
      new LocalError(LocalErrorCode.RequestAborted, 'The server cancelled this request', {
        details: { id, reason },
      }),
    );
    return true;
  }

  /** The connection closed: abort every handler. */
  abortAll(error: Error): void {
    const controllers = [...this.#running.values()];
    this.#running.clear();
    for (const controller of controllers) controller.abort(error);
  }

  async #run(
    method: string,
    params: Record<string, unknown> | undefined,
    id: RequestId,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const handler = this.#host.handler();
    if (handler === undefined) {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const result: unknown = await handler(method, params, { id, signal });
    if (!isRecord(result)) {
      throw new Error(`The handler of ${method} did not return a result object`);
    }
    return result;
  }
}

function errorObjectOf(error: unknown): ErrorObject {
  if (error instanceof ProtocolError) return error.toErrorObject();
  return { code: ErrorCode.InternalError, message: asError(error).message };
}
