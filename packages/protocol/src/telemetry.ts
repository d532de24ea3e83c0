/**
 * The OpenTelemetry semantic conventions for MCP as plain data, shared by the client's and the
 * server's spans: span names and attributes. Nothing here depends on OpenTelemetry itself.
 */
import { mcpNameFor } from './http-headers';
import { isRecord } from './util';

/**
 * The name and attributes of an MCP span (client or server side) at its start.
 *
 * @experimental
 */
export interface McpSpanDescription {
  /** `{mcp.method.name} {target}`, the target being the tool or prompt name when there is one. */
  name: string;
  attributes: Record<string, string>;
}

/**
 * Describes the span of one MCP request as the semantic conventions say: `mcp.method.name`,
 * `jsonrpc.request.id`, `gen_ai.tool.name` with `gen_ai.operation.name: execute_tool` for
 * `tools/call`, `gen_ai.prompt.name` for `prompts/get`, `mcp.resource.uri` for the resource
 * methods, `mcp.protocol.version` and `mcp.session.id` when known. The resource URI stays out of
 * the span name (high cardinality).
 *
 * @experimental
 */
export function describeMcpSpan(
  request: { method: string; params?: unknown; id?: string | number | undefined },
  facts: { protocolVersion?: string | undefined; sessionId?: string | undefined } = {},
): McpSpanDescription {
  const { method, params, id } = request;
  const attributes: Record<string, string> = { 'mcp.method.name': method };
  if (id !== undefined) attributes['jsonrpc.request.id'] = String(id);
  // A URI or a task id in the span name would make names unbounded.
  const unnamed = method === 'resources/read' || method.startsWith('tasks/');
  const target = unnamed ? undefined : mcpNameFor(method, params);
  if (method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  }
  if (method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
  const uri = isRecord(params) ? params.uri : undefined;
  if (method.startsWith('resources/') && typeof uri === 'string') {
    attributes['mcp.resource.uri'] = uri;
  }
  if (facts.protocolVersion) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.sessionId) attributes['mcp.session.id'] = facts.sessionId;
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/**
 * The `error.type` of a result that reports a failure in its payload: `tool_error` for a
 * `tools/call` result with `isError: true`, else `undefined`.
 *
 * @experimental
 */
export function resultErrorType(method: string, result: unknown): string | undefined {
  return method === 'tools/call' && isRecord(result) && result.isError === true
    ? 'tool_error'
    : undefined;
}

/**
 * How a failed MCP request is recorded on its span, as the semantic conventions say.
 *
 * @experimental
 */
export interface McpSpanFailure {
  /** `error.type`: the JSON-RPC error code, a local error's code, `tool_error`, or `_OTHER`. */
  errorType: string;
  /** `rpc.response.status_code`: the JSON-RPC error code, when the peer answered with one. */
  statusCode?: string;
  /** The span status description: the error's message, when there is one. */
  message?: string;
}

/**
 * Describes how a request ended, for its span: `undefined` when it succeeded. `error` may be a
 * JSON-RPC error object or `ProtocolError` (numeric `code`), a `LocalError` (string `code`, such
 * as `REQUEST_TIMEOUT`) or anything else thrown (`_OTHER`); a result fails when
 * {@link resultErrorType} says so.
 *
 * @experimental
 */
export function describeMcpFailure(
  method: string,
  outcome: { result: unknown } | { error: unknown },
): McpSpanFailure | undefined {
  if ('result' in outcome) {
    const errorType = resultErrorType(method, outcome.result);
    return errorType === undefined ? undefined : { errorType };
  }
  const { code, message } = isRecord(outcome.error) ? outcome.error : {};
  const described: McpSpanFailure =
    typeof code === 'number'
      ? { errorType: String(code), statusCode: String(code) }
      : { errorType: typeof code === 'string' ? code : '_OTHER' };
  if (typeof message === 'string' && message !== '') described.message = message;
  return described;
}
