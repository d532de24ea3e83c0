/**
 * A scripted legacy server for the cases a real server never produces: it answers each request
 * with what the test's script returns, and records everything it receives.
 */
import {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
  type ErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Transport,
} from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { onCleanup, openConnection } from './legacy-harness';

/** What the script does with a request: answer, fail, or stay silent (`undefined`). */
export type ScriptAnswer = { result: Record<string, unknown> } | { error: ErrorObject } | undefined;

/** A script: one answer per request. */
export type Script = (request: JsonRpcRequest) => ScriptAnswer;

/** An `initialize` result in the given version with the given capabilities. */
export function initializeResult(
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
): { result: Record<string, unknown> } {
  return {
    result: { protocolVersion, capabilities, serverInfo: { name: 'scripted', version: '0.0.1' } },
  };
}

/** A script answering `initialize` with `init` and everything else with `{}`. */
export function simpleScript(init: ScriptAnswer, others: Script = () => ({ result: {} })): Script {
  return (request) => (request.method === 'initialize' ? init : others(request));
}

/** The server end of an in-memory pair, run by a script. */
export class ScriptedPeer {
  readonly received: JsonRpcMessage[] = [];
  readonly responses: JsonRpcResponse[] = [];
  private nextId = 100;

  constructor(
    readonly transport: Transport,
    private readonly script: Script,
  ) {
    transport.onmessage = (message) => this.receive(message);
  }

  /** Sends a request to the client and resolves with its response. */
  async request(method: string, params?: Record<string, unknown>): Promise<JsonRpcResponse> {
    const id = this.nextId++;
    await this.transport.send(createRequest(id, method, params));
    for (let i = 0; i < 500; i += 1) {
      const response = this.responses.find((r) => r.id === id);
      if (response !== undefined) return response;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    throw new Error(`no response to ${method}`);
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.transport.send(createNotification(method, params));
  }

  /** The requests and notifications received with this method. */
  messages(method: string): JsonRpcMessage[] {
    return this.received.filter((m) => 'method' in m && m.method === method);
  }

  private receive(message: JsonRpcMessage): void {
    this.received.push(message);
    if (!('method' in message)) {
      this.responses.push(message as JsonRpcResponse);
      return;
    }
    if (!('id' in message)) return;
    const answer = this.script(message as JsonRpcRequest);
    if (answer === undefined) return;
    const response =
      'result' in answer
        ? createResultResponse(message.id, answer.result)
        : createErrorResponse(message.id, answer.error);
    void this.transport.send(response).catch(() => undefined);
  }
}

/** A started client connection facing a scripted peer. */
export async function scriptedConnection(script: Script) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const peer = new ScriptedPeer(serverEnd, script);
  await serverEnd.start();
  onCleanup(() => serverEnd.close());
  const connection = await openConnection(clientEnd);
  return { peer, connection };
}
