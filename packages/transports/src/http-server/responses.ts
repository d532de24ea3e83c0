/**
 * The HTTP responses the core writes itself: JSON-RPC error bodies for rejected requests, JSON
 * answers, and the headers of SSE streams.
 */
import {
  createErrorResponse,
  ErrorCode,
  type ErrorObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
} from '@twofold/protocol/experimental';

/** Headers of every SSE response: no caching, and no buffering by nginx-style proxies. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

/** A JSON body with the given status and extra headers. */
export function jsonResponse(
  status: number,
  body: JsonRpcMessage,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A JSON-RPC error body (`id` included when it was readable) with an HTTP status. */
export function errorResponse(
  status: number,
  error: ErrorObject,
  options: { id?: RequestId | undefined; headers?: Record<string, string> } = {},
): Response {
  return jsonResponse(status, createErrorResponse(options.id, error), options.headers);
}

/** An HTTP-level refusal that happens before any JSON-RPC message was read. */
export function rejectRequest(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return errorResponse(status, { code: ErrorCode.InvalidRequest, message }, { headers });
}

/** 202 Accepted with no body: the answer to notifications and responses. */
export function acceptedResponse(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 202, headers });
}

/**
 * The HTTP status of a JSON answer: the modern header, capability and version errors are 400,
 * method-not-found is 404, everything else (results and other errors) 200.
 */
export function statusForResponse(message: JsonRpcResponse): number {
  if (!('error' in message)) return 200;
  switch (message.error.code) {
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    case ErrorCode.MethodNotFound:
      return 404;
    default:
      return 200;
  }
}

/** 405 with the methods the endpoint does accept. */
export function methodNotAllowed(allow: string): Response {
  return rejectRequest(405, `Method not allowed; this endpoint accepts ${allow}`, { Allow: allow });
}
