/**
 * The raw channel the probing checks use: JSON-RPC messages exactly as written, answers exactly
 * as received (status codes, stray messages and all), with no protocol logic in between. The
 * normal exchange goes through `McpClient`; a check that must see the wire uses this.
 */
import {
  buildRequestMeta,
  createNotification,
  createRequest,
  type Implementation,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '@twofold/protocol/experimental';

/**
 * What came back for one message sent on a raw channel.
 */
export interface RawExchange {
  /** The JSON-RPC response to the message, when one came back. */
  response?: JsonRpcResponse;
  /** HTTP only: the response's status and headers, and its body when it held no message. */
  http?: {
    status: number;
    contentType: string | null;
    sessionId: string | null;
    /** The body (at most 200 characters) when it was not a JSON-RPC message or event stream. */
    bodyPreview?: string;
  };
  /** Messages other than the response that arrived while waiting (notifications, strays). */
  others: JsonRpcMessage[];
  /** Why no response came (timeout, closed stream, network error). */
  failure?: string;
  /** stdio: the process ended before answering (rather than staying silent). */
  closed?: true;
}

/** Options of one send. */
export interface RawSendOptions {
  /** HTTP only: headers to set (a string) or remove (`null`) after the usual ones are built. */
  headers?: Record<string, string | null>;
  timeoutMs: number;
}

/** A channel to one server (a stdio process, or an HTTP endpoint with an optional session). */
export interface RawChannel {
  readonly transport: 'stdio' | 'http';
  /** stdio only: inbound lines that were not JSON-RPC messages (at most 20). */
  noise?(): string[];
  /**
   * Sends one message. A request resolves with its response (or a failure); a notification
   * resolves once written (stdio) or once the HTTP response has been read.
   */
  send(message: JsonRpcMessage, options: RawSendOptions): Promise<RawExchange>;
  /** Ends the channel: kills the process, or deletes the legacy HTTP session. Idempotent. */
  close(): Promise<void>;
}

/** Which lineage a raw channel speaks: it decides the HTTP headers. */
export type RawEra = 'modern' | 'legacy';

let nextId = 0;

/** A request id no other doctor request uses (ids are strings so they cannot clash with numbers). */
export function doctorRequestId(): string {
  nextId += 1;
  return `twofold-doctor-${nextId}`;
}

/** A modern request: `params` plus the `_meta` envelope naming `version`. */
export function modernRequest(
  method: string,
  params: Record<string, unknown>,
  version: string,
  clientInfo: Implementation,
): JsonRpcRequest {
  const _meta = buildRequestMeta({ protocolVersion: version, clientCapabilities: {}, clientInfo });
  return createRequest(doctorRequestId(), method, { ...params, _meta });
}

/** A modern notification, with the optional `_meta` left out. */
export function modernNotification(
  method: string,
  params: Record<string, unknown>,
): JsonRpcNotification {
  return createNotification(method, params);
}

/** A legacy `initialize` request offering `version`. */
export function initializeRequest(version: string, clientInfo: Implementation): JsonRpcRequest {
  return createRequest(doctorRequestId(), 'initialize', {
    protocolVersion: version,
    capabilities: {},
    clientInfo,
  });
}

/** A legacy `ping`: the harmless request that follows notifications on a legacy stdio session. */
export function createPing(): JsonRpcRequest {
  return createRequest(doctorRequestId(), 'ping');
}

/** The error object of a response, when it is an error response. */
export function errorOf(
  exchange: RawExchange,
): { code: number; message: string; data?: unknown } | undefined {
  const response = exchange.response;
  return response && 'error' in response ? response.error : undefined;
}

/** The result of a response, when it is a result response. */
export function resultOf(exchange: RawExchange): Record<string, unknown> | undefined {
  const response = exchange.response;
  return response && 'result' in response ? response.result : undefined;
}

/** One line describing what came back, for report details. */
export function describeExchange(exchange: RawExchange): string {
  const parts: string[] = [];
  if (exchange.http) parts.push(`HTTP ${exchange.http.status}`);
  const error = errorOf(exchange);
  const result = resultOf(exchange);
  if (error) parts.push(`error ${error.code} ${JSON.stringify(truncate(error.message, 120))}`);
  else if (result) parts.push('a result');
  else if (exchange.failure) parts.push(exchange.failure);
  else if (exchange.http?.bodyPreview) {
    parts.push(`body ${JSON.stringify(exchange.http.bodyPreview)}`);
  } else if (exchange.http) parts.push('no JSON-RPC response');
  return parts.join(', ');
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
