/**
 * A scripted modern server behind a `stream` target, for fault tests of `McpClient`: it answers
 * `server/discover` itself (unless scripted), hands every other request to the test's script by
 * method, and answers unscripted methods -32601.
 */
import {
  createErrorResponse,
  createNotification,
  createResultResponse,
  ErrorCode,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  LATEST_VERSION,
  type RequestId,
  type Transport,
} from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import type { ServerTarget } from '../../src/types';
import { onCleanup } from './client-harness';

export const SCRIPTED_INFO = { name: 'scripted', version: '0.1.0' };

/** The discover result the scripted server gives. */
export const SCRIPTED_DISCOVER = {
  resultType: 'complete',
  supportedVersions: [LATEST_VERSION],
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': SCRIPTED_INFO },
};

/** Answers one request (or not: leaving it unanswered is a script too). */
export type Reply = (request: JsonRpcRequest, peer: ScriptedServer) => void | Promise<void>;

/** The server end of one connection. */
export class ScriptedServer {
  /** Every request received (discover included), in order. */
  readonly requests: JsonRpcRequest[] = [];
  readonly notifications: JsonRpcNotification[] = [];
  readonly responses: JsonRpcResponse[] = [];

  constructor(
    readonly transport: Transport,
    private readonly script: Record<string, Reply>,
  ) {
    transport.onmessage = (message) => this.receive(message);
  }

  /** The requests of `method`. */
  requestsOf(method: string): JsonRpcRequest[] {
    return this.requests.filter((r) => r.method === method);
  }

  /** A complete modern result (adds `resultType` unless `raw`). */
  result(id: RequestId, result: Record<string, unknown>, raw = false): Promise<void> {
    return this.send(
      createResultResponse(id, raw ? result : { resultType: 'complete', ...result }),
    );
  }

  error(id: RequestId, code: number, message: string, data?: unknown): Promise<void> {
    return this.send(createErrorResponse(id, { code, message, data }));
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.send(createNotification(method, params));
  }

  /** A notification on listen stream `id`. */
  tagged(id: RequestId, method: string, params: Record<string, unknown> = {}): Promise<void> {
    return this.notify(method, {
      ...params,
      _meta: { 'io.modelcontextprotocol/subscriptionId': id },
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.transport.send(message);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private receive(message: JsonRpcMessage): void {
    if (!('method' in message)) {
      this.responses.push(message);
      return;
    }
    if (!('id' in message) || message.id === undefined) {
      this.notifications.push(message as JsonRpcNotification);
      return;
    }
    const request = message as JsonRpcRequest;
    this.requests.push(request);
    const reply = this.script[request.method];
    if (reply !== undefined) void reply(request, this);
    else if (request.method === 'server/discover') void this.result(request.id, SCRIPTED_DISCOVER);
    else
      void this.error(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
}

/** A target whose every `open()` starts a scripted server with `script`. */
export function scriptedTarget(
  script: Record<string, Reply>,
  key = 'memory:scripted',
): { target: Extract<ServerTarget, { kind: 'stream' }>; peers: ScriptedServer[] } {
  const peers: ScriptedServer[] = [];
  const target: Extract<ServerTarget, { kind: 'stream' }> = {
    kind: 'stream',
    key,
    open: () => {
      const [clientEnd, serverEnd] = createInMemoryPair();
      const peer = new ScriptedServer(serverEnd, script);
      peers.push(peer);
      void serverEnd.start();
      onCleanup(() => peer.close());
      return clientEnd;
    },
  };
  return { target, peers };
}
