/** Checks shared by the HTTP client transports before anything goes on the wire. */
import {
  decodeMessage,
  isJsonRpcResponse,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type RequestId,
} from '@twofold/protocol/experimental';

/** Lifecycle of a client transport. */
export type ClientState = 'idle' | 'starting' | 'open' | 'closing' | 'closed';

/** A message ready to POST. */
export interface OutgoingMessage {
  kind: 'request' | 'notification' | 'result' | 'error';
  /** The JSON text. */
  body: string;
  method?: string | undefined;
  /** Set for requests: their response must come back. */
  id?: RequestId | undefined;
}

/** Rejects sends outside the open state, as the Transport contract says. */
export function assertOpen(state: ClientState): void {
  if (state === 'idle' || state === 'starting') {
    throw new LocalError(LocalErrorCode.NotConnected, 'the transport has not been started');
  }
  if (state !== 'open') {
    throw new LocalError(LocalErrorCode.ConnectionClosed, 'the transport is closed');
  }
}

/** Checks the envelope and serialises; failures are `INVALID_MESSAGE`. */
export function encodeOutgoing(message: JsonRpcMessage): OutgoingMessage {
  const decoded = decodeMessage(message);
  if (!decoded.ok) throw invalidMessage(`not a JSON-RPC message: ${decoded.error.message}`);
  let body: string;
  try {
    body = JSON.stringify(message);
  } catch (cause) {
    throw new LocalError(LocalErrorCode.InvalidMessage, 'the message cannot be serialised', {
      cause,
    });
  }
  const method = isJsonRpcResponse(decoded.message) ? undefined : decoded.message.method;
  const id = decoded.kind === 'request' ? decoded.message.id : undefined;
  return { kind: decoded.kind, body, method, id };
}

/** An outgoing message that must not be sent. */
export function invalidMessage(reason: string): LocalError {
  return new LocalError(LocalErrorCode.InvalidMessage, `refusing to send: ${reason}`);
}
