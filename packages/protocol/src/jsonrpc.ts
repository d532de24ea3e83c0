/**
 * The JSON-RPC 2.0 envelope. Classification is hand-written (a few property checks) because it
 * runs on every message; method params and results are validated by the revision's schemas.
 * Batches are rejected: no offered revision allows them.
 */
import { ErrorCode, type ErrorObject } from './errors';
import type { RequestId } from './types';
import { isRecord } from './util';

/**
 * The `jsonrpc` member of every message.
 *
 * @experimental
 */
export const JSONRPC_VERSION = '2.0';

/**
 * A request: expects exactly one response with the same id.
 *
 * @experimental
 */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}
/**
 * A notification: never answered.
 *
 * @experimental
 */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
/**
 * A successful response.
 *
 * @experimental
 */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}
/**
 * An error response.
 *
 * @experimental
 */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent (or null, from plain JSON-RPC peers) when the request id was unreadable. */
  id?: RequestId | null;
  error: ErrorObject;
}
/**
 * Either kind of response.
 *
 * @experimental
 */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/**
 * Any JSON-RPC message of the offered revisions (batches are not offered).
 *
 * @experimental
 */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/**
 * What a decoded message is.
 *
 * @experimental
 */
export type DecodedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'result'; message: JsonRpcResultResponse }
  | { kind: 'error'; message: JsonRpcErrorResponse };

/**
 * The outcome of decoding: a message, or the error to answer with. `id` is set when the
 * invalid message was a request (or of no telling kind) whose id could be read, so the answer
 * can name it. `responseId` is set instead when it was a response: a response is never
 * answered, but its requester can fail that request at once.
 *
 * @experimental
 */
export type DecodeResult =
  | ({ ok: true } & DecodedMessage)
  | { ok: false; error: ErrorObject; id?: RequestId; responseId?: RequestId };

/**
 * A string or an integer (JSON-RPC ids of MCP are never null or fractional).
 *
 * @experimental
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Whether a message is a request (it has a method and an id, so it expects a response).
 *
 * @experimental
 */
export function isJsonRpcRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

/**
 * Whether a message is a notification (a method without an id, never answered). A request is
 * shaped like a notification too, so the type narrows only where this holds: to sort all three
 * kinds, test {@link isJsonRpcRequest} and {@link isJsonRpcResponse}; what is left is a
 * notification.
 *
 * @experimental
 */
export function isJsonRpcNotification(
  message: JsonRpcMessage,
): message is JsonRpcNotification & { id?: undefined } {
  return 'method' in message && !isJsonRpcRequest(message);
}

/**
 * Whether a message is a response (a result or an error, no method).
 *
 * @experimental
 */
export function isJsonRpcResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

/**
 * Classifies a parsed JSON value as a JSON-RPC message, checking the envelope only.
 *
 * @experimental
 */
export function decodeMessage(value: unknown): DecodeResult {
  if (!isRecord(value)) {
    const what = Array.isArray(value)
      ? 'JSON-RPC batches are not supported'
      : 'message is not an object';
    return invalid(what);
  }
  if (value.jsonrpc !== JSONRPC_VERSION) {
    const looksLikeResponse = value.method === undefined && ('result' in value || 'error' in value);
    return looksLikeResponse
      ? invalidResponse('jsonrpc must be "2.0"', value.id)
      : invalid('jsonrpc must be "2.0"', readableId(value.id));
  }
  const { id, method } = value;
  if (typeof method === 'string') {
    if (value.params !== undefined && !isRecord(value.params)) {
      return invalid('params must be an object', readableId(id));
    }
    if (id === undefined)
      return { ok: true, kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isRequestId(id)) return invalid('id must be a string or an integer');
    return { ok: true, kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if (method !== undefined) return invalid('method must be a string', readableId(id));
  if ('result' in value) {
    if (!isRequestId(id)) return invalid('response id must be a string or an integer');
    if (!isRecord(value.result)) return invalidResponse('result must be an object', id);
    return { ok: true, kind: 'result', message: value as unknown as JsonRpcResultResponse };
  }
  if ('error' in value) {
    const error = value.error;
    if (!isRecord(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalidResponse('error must have an integer code and a string message', id);
    }
    if (id !== undefined && id !== null && !isRequestId(id))
      return invalid('error response id is invalid');
    return { ok: true, kind: 'error', message: value as unknown as JsonRpcErrorResponse };
  }
  return invalid('not a request, notification or response', readableId(id));
}

/**
 * Parses one JSON text and decodes it; unparsable text yields -32700.
 *
 * @experimental
 */
export function parseMessage(text: string): DecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return { ok: false, error: { code: ErrorCode.ParseError, message: `Parse error${detail}` } };
  }
  return decodeMessage(value);
}

/**
 * Builds a request; `params` is left out when undefined.
 *
 * @experimental
 */
export function createRequest(
  id: RequestId,
  method: string,
  params?: Record<string, unknown>,
): JsonRpcRequest {
  return params === undefined
    ? { jsonrpc: JSONRPC_VERSION, id, method }
    : { jsonrpc: JSONRPC_VERSION, id, method, params };
}
/**
 * Builds a notification; `params` is left out when undefined.
 *
 * @experimental
 */
export function createNotification(
  method: string,
  params?: Record<string, unknown>,
): JsonRpcNotification {
  return params === undefined
    ? { jsonrpc: JSONRPC_VERSION, method }
    : { jsonrpc: JSONRPC_VERSION, method, params };
}
/**
 * Builds a result response.
 *
 * @experimental
 */
export function createResultResponse(
  id: RequestId,
  result: Record<string, unknown>,
): JsonRpcResultResponse {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}
/**
 * An error response; `id` is omitted when the request's id could not be read.
 *
 * @experimental
 */
export function createErrorResponse(
  id: RequestId | undefined,
  error: ErrorObject,
): JsonRpcErrorResponse {
  return id === undefined
    ? { jsonrpc: JSONRPC_VERSION, error }
    : { jsonrpc: JSONRPC_VERSION, id, error };
}

function readableId(id: unknown): RequestId | undefined {
  return isRequestId(id) ? id : undefined;
}

function invalid(message: string, id?: RequestId): DecodeResult {
  const error = { code: ErrorCode.InvalidRequest, message: `Invalid request: ${message}` };
  return id === undefined ? { ok: false, error } : { ok: false, error, id };
}

function invalidResponse(message: string, id: unknown): DecodeResult {
  const error = { code: ErrorCode.InvalidRequest, message: `Invalid response: ${message}` };
  return isRequestId(id) ? { ok: false, error, responseId: id } : { ok: false, error };
}
