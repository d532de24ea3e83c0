/**
 * A minimal client end for tests: sends requests and notifications on a transport, matches
 * responses by id (failing on a second response to one id), records notifications, and
 * answers the server's requests with a given function.
 */
import {
  buildRequestMeta,
  createErrorResponse,
  createNotification,
  createRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  type Transport,
} from '@twofold/protocol/experimental';

export const MODERN = '2026-07-28';

/** Params of a modern request: `_meta` with version and capabilities, plus `extra`. */
export function modernParams(
  extra: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...extra,
    _meta: {
      ...buildRequestMeta({ protocolVersion: MODERN, clientCapabilities }),
      ...meta,
    },
  };
}

export class TestPeer {
  readonly notifications: JsonRpcNotification[] = [];
  readonly serverRequests: JsonRpcRequest[] = [];
  readonly strayResponses: JsonRpcResponse[] = [];
  /** Responses of every id, to prove each request is answered exactly once. */
  readonly answerCounts = new Map<RequestId, number>();
  private readonly waiting = new Map<RequestId, (response: JsonRpcResponse) => void>();
  private nextId = 1;

  constructor(
    readonly transport: Transport,
    private readonly answer: (
      request: JsonRpcRequest,
    ) => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({}),
  ) {
    transport.onmessage = (message) => this.receive(message);
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params?: Record<string, unknown>, id: RequestId = this.nextId++) {
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.transport.send(createRequest(id, method, params)).catch(reject);
    });
  }

  /** Sends a request without waiting for an answer (returns its id). */
  fire(method: string, params?: Record<string, unknown>, id: RequestId = this.nextId++): RequestId {
    void this.transport.send(createRequest(id, method, params));
    return id;
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.transport.send(createNotification(method, params));
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private receive(message: JsonRpcMessage): void {
    if ('method' in message) {
      if ('id' in message && message.id !== undefined)
        void this.answerServer(message as JsonRpcRequest);
      else this.notifications.push(message);
      return;
    }
    const id = message.id;
    if (id === undefined || id === null) {
      this.strayResponses.push(message);
      return;
    }
    this.answerCounts.set(id, (this.answerCounts.get(id) ?? 0) + 1);
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    if (resolve) resolve(message);
    else this.strayResponses.push(message);
  }

  private async answerServer(request: JsonRpcRequest): Promise<void> {
    this.serverRequests.push(request);
    try {
      const result = await this.answer(request);
      await this.transport.send({ jsonrpc: '2.0', id: request.id, result });
    } catch (error) {
      await this.transport.send(
        createErrorResponse(request.id, { code: -32603, message: String(error) }),
      );
    }
  }
}

/** Resolves when `predicate` holds, checking after each macrotask (bounded). */
export async function eventually(predicate: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not reached');
}
