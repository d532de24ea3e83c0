/**
 * A scripted modern server for tests: it answers `server/discover` itself and hands every
 * other request to the test's script, which replies (or not) with the helpers below.
 */
import {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  LATEST_VERSION,
  type RequestId,
  type Transport,
} from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { cleanups } from './modern-session';

export const SERVER_INFO = { name: 'scripted', version: '0.1.0' };

/** The discover result the scripted server gives. */
export const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: [LATEST_VERSION],
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  instructions: 'be brief',
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
};

/** How the script answers one request; returning nothing leaves it unanswered. */
export type Script = (request: JsonRpcRequest, peer: ScriptedPeer) => void | Promise<void>;

export class ScriptedPeer {
  /** Every request after the setup discover (answered by the peer itself), in arrival order. */
  readonly requests: JsonRpcRequest[] = [];
  readonly notifications: JsonRpcNotification[] = [];
  readonly responses: JsonRpcResponse[] = [];
  script: Script = () => {};
  #discovered = false;

  constructor(readonly transport: Transport) {
    transport.onmessage = (message) => this.#receive(message);
  }

  result(id: RequestId, result: Record<string, unknown>): Promise<void> {
    return this.transport.send(createResultResponse(id, result));
  }

  error(id: RequestId, code: number, message: string, data?: unknown): Promise<void> {
    return this.transport.send(createErrorResponse(id, { code, message, data }));
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.transport.send(createNotification(method, params));
  }

  /** A notification on listen stream `id`. */
  tagged(id: RequestId, method: string, params: Record<string, unknown> = {}): Promise<void> {
    return this.notify(method, {
      ...params,
      _meta: { 'io.modelcontextprotocol/subscriptionId': id },
    });
  }

  request(id: RequestId, method: string, params?: Record<string, unknown>): Promise<void> {
    return this.transport.send(createRequest(id, method, params));
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  #receive(message: JsonRpcMessage): void {
    if ('method' in message && 'id' in message) {
      if (message.method === 'server/discover' && !this.#discovered) {
        this.#discovered = true;
        void this.result(message.id, DISCOVER_RESULT);
        return;
      }
      this.requests.push(message);
      void this.script(message, this);
    } else if ('method' in message) {
      this.notifications.push(message);
    } else {
      this.responses.push(message);
    }
  }
}

/** A started scripted server end and the (unstarted) client end to connect to it. */
export async function scriptedPair(): Promise<{ peer: ScriptedPeer; clientEnd: Transport }> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const peer = new ScriptedPeer(serverEnd);
  await serverEnd.start();
  cleanups.push(() => peer.close());
  return { peer, clientEnd };
}
