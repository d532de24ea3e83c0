/**
 * Plain `fetch` POSTs as MCP clients send them, and reading their answers: what the HTTP
 * server tests drive the handler with.
 */
import {
  buildRequestHeaders,
  protocolVersionOf,
  type RequestId,
} from '@twofold/protocol/experimental';
import { MODERN } from './peer';

/** The Accept and Content-Type every POST carries. */
export const ACCEPT = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

/** A modern request with the Mcp-* headers built from its body. */
export function modernPost(
  url: URL,
  id: RequestId,
  method: string,
  params: Record<string, unknown>,
  init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
) {
  const message = { jsonrpc: '2.0' as const, id, method, params };
  const version = protocolVersionOf(params) ?? MODERN;
  return fetch(url, {
    method: 'POST',
    headers: { ...ACCEPT, ...buildRequestHeaders(message, version), ...init.headers },
    body: JSON.stringify(message),
    signal: init.signal,
  });
}

/** A legacy message, with the session headers the caller passes. */
export function legacyPost(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(url, {
    method: 'POST',
    headers: { ...ACCEPT, ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/** The JSON-RPC messages of a JSON or SSE response body. */
export async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 5)
    .map((line) => JSON.parse(line.slice(5)));
}
