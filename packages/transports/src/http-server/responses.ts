/**
 * The HTTP responses the core writes itself: JSON-RPC error bodies for rejected requests, JSON
 * answers, and the headers of SSE streams. They are {@link Reply} values, which node:http
 * writes as they are and web handlers turn into a `Response`.
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

/**
 * An answer the core made: a status, headers, and a body of text (JSON), a stream (SSE) or
 * none. Its headers stay writable until it is sent.
 *
 * @experimental
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string | ReadableStream<Uint8Array> | null,
  ) {}

  /** The reply as a web `Response`. */
  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: this.headers });
  }
}

/**
 * What the core answers a request with: a {@link Reply} of its own, or a `Response` that a
 * hook (access control) made.
 *
 * @experimental
 */
export type Answer = Reply | Response;

/** The answer as a web `Response`. */
export function toResponse(answer: Answer): Response {
  return answer instanceof Reply ? answer.toResponse() : answer;
}

/** A JSON body with the given status and extra headers. */
export function jsonResponse(
  status: number,
  body: JsonRpcMessage,
  headers: Record<string, string> = {},
): Reply {
  return new Reply(
    status,
    { 'Content-Type': 'application/json', ...headers },
    JSON.stringify(body),
  );
}

/** A JSON-RPC error body (`id` included when it was readable) with an HTTP status. */
export function errorResponse(
  status: number,
  error: ErrorObject,
  options: { id?: RequestId | undefined; headers?: Record<string, string> } = {},
): Reply {
  return jsonResponse(status, createErrorResponse(options.id, error), options.headers);
}

/** An HTTP-level refusal that happens before any JSON-RPC message was read. */
export function rejectRequest(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Reply {
  return errorResponse(status, { code: ErrorCode.InvalidRequest, message }, { headers });
}

/** 202 Accepted with no body: the answer to notifications and responses. */
export function acceptedResponse(headers: Record<string, string> = {}): Reply {
  return new Reply(202, { ...headers }, null);
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
export function methodNotAllowed(allow: string): Reply {
  return rejectRequest(405, `Method not allowed; this endpoint accepts ${allow}`, { Allow: allow });
}

/** An SSE stream's answer: 200, the SSE headers and `extra`, and `body` as it is written. */
export function sseReply(body: ReadableStream<Uint8Array>, extra: Record<string, string>): Reply {
  return new Reply(200, { ...SSE_HEADERS, ...extra }, body);
}

/** Whether `value` is an answer rather than, say, an access control's grant. */
export function isAnswer(value: unknown): value is Answer {
  return value instanceof Reply || value instanceof Response;
}
