/**
 * The server half of the contract: a small responder the suite installs on the server
 * transport, or that a child process runs on its own transport when the server is remote. It
 * only answers requests (with responses and request-related notifications), so it works on
 * every transport kind, modern Streamable HTTP included.
 */
import {
  createErrorResponse,
  createNotification,
  createResultResponse,
  ErrorCode,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type Transport,
} from '@twofold/protocol/experimental';

/** Methods the contract's client sends and the responder answers. */
export const CONTRACT_METHODS = {
  /** Request: answered with `{ echo: params }`. */
  echo: 'contract/echo',
  /** Notification: its `params.seq` is recorded. */
  note: 'contract/note',
  /** Request: answered with the responder's {@link ContractReport}. */
  report: 'contract/report',
  /** Request `{ count }`: `count` related `contract/progress` notifications, then `{ count }`. */
  stream: 'contract/stream',
  /** Notification from the responder, related to a `contract/stream` request. */
  progress: 'contract/progress',
  /** Request `{ group, size, token }`: held until `size` arrived, then answered in reverse. */
  gather: 'contract/gather',
  /** Request: answered with `{}`, then the responder closes its transport. */
  close: 'contract/close',
} as const;

/**
 * What the responder observed, as returned to the client by `contract/report`.
 *
 * @experimental
 */
export interface ContractReport {
  /** `params.seq` of every inbound message that had one, in delivery order. */
  seqs: number[];
  /** How many errors the server transport reported on `onerror`. */
  errors: number;
  /** Inbound messages the contract never sends (responses, unknown methods). */
  unexpected: number;
}

/**
 * The responder installed on a server transport, with what it observed.
 *
 * @experimental
 */
export interface ContractResponder {
  /** A snapshot of what the responder observed so far. */
  report(): ContractReport;
  /** How many times the transport's `onclose` ran (the contract allows exactly one). */
  readonly closeCount: number;
  /** Callbacks the transport ran after `onclose` (the contract allows none). */
  readonly callbacksAfterClose: number;
  /** Resolves when the transport's `onclose` has run. */
  readonly closed: Promise<void>;
}

/**
 * Installs the contract's responder on `transport` (its `onmessage`, `onerror` and `onclose`);
 * the caller starts the transport. A child process serving the contract over stdio runs this on
 * its server transport, and the suite's pair then sets `remoteResponder: true`.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport();
 * createContractResponder(transport);
 * await transport.start();
 * ```
 *
 * @experimental
 */
export function createContractResponder(transport: Transport): ContractResponder {
  const seqs: number[] = [];
  const gathering = new Map<string, JsonRpcRequest[]>();
  let errors = 0;
  let unexpected = 0;
  let closeCount = 0;
  let callbacksAfterClose = 0;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  // Sends fail once the peer has gone; that is expected in the close tests and not an error.
  const send = (message: JsonRpcMessage, request: JsonRpcRequest) =>
    transport.send(message, { relatedRequestId: request.id });
  const answer = (request: JsonRpcRequest, result: Record<string, unknown>) =>
    send(createResultResponse(request.id, result), request);

  async function stream(request: JsonRpcRequest, count: number): Promise<void> {
    for (let seq = 0; seq < count; seq++) {
      await send(
        createNotification(CONTRACT_METHODS.progress, { seq, request: request.id }),
        request,
      );
    }
    await answer(request, { count });
  }

  async function gather(request: JsonRpcRequest, group: string, size: number): Promise<void> {
    const held = gathering.get(group) ?? [];
    held.push(request);
    gathering.set(group, held);
    if (held.length < size) return;
    gathering.delete(group);
    for (const each of held.reverse()) await answer(each, { token: each.params?.token });
  }

  async function handleRequest(request: JsonRpcRequest): Promise<void> {
    const params = request.params ?? {};
    switch (request.method) {
      case CONTRACT_METHODS.echo:
        return answer(request, { echo: params });
      case CONTRACT_METHODS.report:
        return answer(request, { ...report() });
      case CONTRACT_METHODS.stream:
        return stream(request, Number(params.count));
      case CONTRACT_METHODS.gather:
        return gather(request, String(params.group), Number(params.size));
      case CONTRACT_METHODS.close:
        await answer(request, {});
        return transport.close();
      default:
        unexpected++;
        return send(
          createErrorResponse(request.id, {
            code: ErrorCode.MethodNotFound,
            message: `The contract responder does not know ${request.method}`,
          }),
          request,
        );
    }
  }

  function report(): ContractReport {
    return { seqs: [...seqs], errors, unexpected };
  }

  transport.onmessage = (message) => {
    if (closeCount > 0) callbacksAfterClose++;
    const seq = 'params' in message ? message.params?.seq : undefined;
    if (typeof seq === 'number') seqs.push(seq);
    if (isJsonRpcResponse(message)) unexpected++;
    else if (isJsonRpcRequest(message)) handleRequest(message).catch(() => {});
    else if (message.method !== CONTRACT_METHODS.note) unexpected++;
  };
  transport.onerror = () => {
    if (closeCount > 0) callbacksAfterClose++;
    errors++;
  };
  transport.onclose = () => {
    if (closeCount > 0) callbacksAfterClose++;
    closeCount++;
    gathering.clear();
    markClosed();
  };

  return {
    report,
    get closeCount() {
      return closeCount;
    },
    get callbacksAfterClose() {
      return callbacksAfterClose;
    },
    closed,
  };
}
