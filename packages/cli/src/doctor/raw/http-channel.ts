/**
 * A raw Streamable HTTP channel: one POST per message with the headers the era requires (and
 * any a check sets or removes), answers read as JSON or as an event stream. In the legacy era it
 * keeps the session the server mints and deletes it on close.
 */
import {
  buildRequestHeaders,
  isJsonRpcResponse,
  isRecord,
  type JsonRpcMessage,
  type JsonRpcResponse,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  META_KEYS,
  parseMessage,
} from '@twofold/protocol/experimental';
import { SseParser } from '@twofold/transports/experimental';
import type { RawChannel, RawEra, RawExchange, RawSendOptions } from './channel';
import { truncate } from './channel';

/** How the HTTP channel is set up. */
export interface HttpChannelOptions {
  url: string;
  /** The target's own headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
  era: RawEra;
  /** Bounds the session DELETE on close. */
  timeoutMs: number;
}

const PREVIEW_CHARS = 200;

/** Opens a raw HTTP channel (nothing is sent until the first message). */
export function openHttpChannel(options: HttpChannelOptions): RawChannel {
  let sessionId: string | undefined;
  let legacyVersion: string | undefined;
  let closed = false;

  const headersFor = (message: JsonRpcMessage, overrides: RawSendOptions['headers']) => {
    const headers = new Headers(options.headers);
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('content-type', 'application/json');
    if (options.era === 'modern' && !isJsonRpcResponse(message)) {
      const version = versionOf(message.params);
      if (version !== undefined) {
        for (const [name, value] of Object.entries(buildRequestHeaders(message, version))) {
          headers.set(name, value);
        }
      }
    }
    if (options.era === 'legacy') {
      if (sessionId !== undefined) headers.set(MCP_SESSION_ID_HEADER, sessionId);
      if (legacyVersion !== undefined) headers.set(MCP_PROTOCOL_VERSION_HEADER, legacyVersion);
    }
    for (const [name, value] of Object.entries(overrides ?? {})) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  };

  return {
    transport: 'http',
    async send(message, sendOptions) {
      const exchange = await post(
        options.url,
        message,
        headersFor(message, sendOptions.headers),
        sendOptions.timeoutMs,
      );
      if (options.era === 'legacy') {
        sessionId ??= exchange.http?.sessionId ?? undefined;
        const result = exchange.response && 'result' in exchange.response;
        if (result && !isJsonRpcResponse(message) && message.method === 'initialize') {
          const version = (exchange.response as { result: Record<string, unknown> }).result
            .protocolVersion;
          if (typeof version === 'string') legacyVersion = version;
        }
      }
      return exchange;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (sessionId === undefined) return;
      // Ending the legacy session is a courtesy: a server may answer 405, or be gone already.
      const headers = new Headers(options.headers);
      headers.set(MCP_SESSION_ID_HEADER, sessionId);
      if (legacyVersion !== undefined) headers.set(MCP_PROTOCOL_VERSION_HEADER, legacyVersion);
      try {
        const response = await fetch(options.url, {
          method: 'DELETE',
          headers,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        await response.body?.cancel();
      } catch {
        // Nothing to report: the session was the doctor's own.
      }
    },
  };
}

function versionOf(params: unknown): string | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  const version = isRecord(meta) ? meta[META_KEYS.protocolVersion] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** One POST, its answer read as JSON or as an event stream until the response arrives. */
async function post(
  url: string,
  message: JsonRpcMessage,
  headers: Headers,
  timeoutMs: number,
): Promise<RawExchange> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const others: JsonRpcMessage[] = [];
  const id = 'id' in message ? message.id : undefined;
  let http: RawExchange['http'];
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      signal: controller.signal,
    });
    const contentType = response.headers.get('content-type');
    http = {
      status: response.status,
      contentType,
      sessionId: response.headers.get(MCP_SESSION_ID_HEADER),
    };
    const type = contentType?.split(';')[0]?.trim().toLowerCase();
    if (type === 'text/event-stream') {
      const found = await readEventStream(response, id, others);
      await response.body?.cancel().catch(() => undefined);
      return found ? { response: found, http, others } : { http, others };
    }
    const text = await response.text();
    const parsed = text.trim() === '' ? undefined : parseMessage(text);
    if (parsed?.ok && (parsed.kind === 'result' || parsed.kind === 'error')) {
      return { response: parsed.message, http, others };
    }
    if (parsed?.ok) others.push(parsed.message);
    if (text !== '') http.bodyPreview = truncate(text, PREVIEW_CHARS);
    return { http, others };
  } catch (error) {
    const failure = controller.signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : `HTTP request failed: ${describeFetchError(error)}`;
    return http ? { http, others, failure } : { others, failure };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads events until the response to `id` (or an error without id, which answers this POST)
 * arrives or the stream ends; other messages are kept in `others`.
 */
async function readEventStream(
  response: Response,
  id: unknown,
  others: JsonRpcMessage[],
): Promise<JsonRpcResponse | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  let found: JsonRpcResponse | undefined;
  const parser = new SseParser({
    onEvent: (event) => {
      if (found || event.data === '') return;
      const parsed = parseMessage(event.data);
      if (!parsed.ok) return;
      if (parsed.kind === 'result' || parsed.kind === 'error') {
        const answerId = parsed.message.id;
        if (answerId === id || answerId === undefined || answerId === null) {
          found = parsed.message;
          return;
        }
      }
      others.push(parsed.message);
    },
  });
  while (!found) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  return found;
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
