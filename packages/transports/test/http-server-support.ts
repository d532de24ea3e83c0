/**
 * Shared helpers of the server-core tests (not a test file itself): an SSE reader, a minimal
 * legacy responder, and request builders for both eras.
 */
import {
  buildRequestHeaders,
  ErrorCode,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type McpHeaderParam,
  type RequestId,
} from '@twofold/protocol/experimental';
import { expect } from 'vitest';
import type { LegacyHooks, LegacySession } from '../src/http-server/index';
import { SseParser } from '../src/sse/parser';

export const MODERN_VERSION = '2026-07-28';
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A promise with its resolver, for events a test waits on. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The JSON-RPC error body of a refused request. */
export async function errorBody(response: Response): Promise<JsonRpcErrorResponse> {
  return (await response.json()) as JsonRpcErrorResponse;
}

/** A modern request with the required `_meta`. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: RequestId = 1,
): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } };
}

/** The headers a modern client sends with `message`. */
export function modernHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  headerParams?: readonly McpHeaderParam[],
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...buildRequestHeaders(message, MODERN_VERSION, headerParams),
  };
}

/** Reads an SSE body event by event; priming events (an id, no data) are only counted. */
export class SseReader {
  private readonly events: { data: string; id: string }[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly parser: SseParser;
  ended = false;
  primingEvents = 0;
  comments = 0;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('no body');
    this.reader = body.getReader();
    this.parser = new SseParser({
      onEvent: (event) => {
        if (event.data !== '') this.events.push({ data: event.data, id: event.lastEventId });
        else this.primingEvents++;
      },
      onComment: () => this.comments++,
    });
  }

  /** The next event's message and id, or undefined when the stream has ended. */
  async next(): Promise<{ message: JsonRpcMessage; id: string } | undefined> {
    while (this.events.length === 0 && !this.ended) await this.pump();
    const event = this.events.shift();
    return event === undefined ? undefined : { message: JSON.parse(event.data), id: event.id };
  }

  /** Every remaining message, up to the end of the stream. */
  async rest(): Promise<JsonRpcMessage[]> {
    const messages: JsonRpcMessage[] = [];
    for (let next = await this.next(); next !== undefined; next = await this.next()) {
      messages.push(next.message);
    }
    return messages;
  }

  /** Reads until the parser has seen an event id. */
  async untilEventId(): Promise<string> {
    while (this.parser.lastEventId === '' && !this.ended) await this.pump();
    return this.parser.lastEventId;
  }

  /** Reads until `count` comments (keep-alives) have arrived. */
  async untilComments(count: number): Promise<void> {
    while (this.comments < count && !this.ended) await this.pump();
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    const { done, value } = await this.reader.read();
    if (done) {
      this.ended = true;
      expect(this.parser.end().truncated).toBe(false);
    } else this.parser.feed(value);
  }
}

/**
 * A minimal legacy MCP server: answers `initialize` (with an error for the version `fail`) and
 * `tools/list`, and records everything delivered.
 */
export function legacyResponder(options: Partial<LegacyHooks> = {}) {
  const sessions: LegacySession[] = [];
  const delivered: JsonRpcMessage[] = [];
  const closed: (string | undefined)[] = [];
  const waiters: Array<() => void> = [];
  const signals = new Map<RequestId, AbortSignal>();
  const hooks: LegacyHooks = {
    ...options,
    onSession: async (session) => {
      sessions.push(session);
      session.onclose = () => closed.push(session.sessionId);
      session.onmessage = (message, context) => {
        delivered.push(message);
        for (const wake of waiters.splice(0)) wake();
        if (!('method' in message) || !('id' in message)) return;
        if (context?.signal !== undefined) signals.set(message.id, context.signal);
        const answer = (result: Record<string, unknown>) =>
          session.send({ jsonrpc: '2.0', id: message.id, result });
        if (message.method === 'tools/list') void answer({ tools: [] });
        if (message.method !== 'initialize') return;
        const version = message.params?.protocolVersion;
        if (version === 'fail') {
          const error = { code: ErrorCode.InvalidParams, message: 'unsupported' };
          void session.send({ jsonrpc: '2.0', id: message.id, error });
        } else {
          const serverInfo = { name: 's', version: '1' };
          void answer({ protocolVersion: version, capabilities: { tools: {} }, serverInfo });
        }
      };
      await session.start();
    },
  };
  /** Resolves with the first delivered message that `match` accepts. */
  async function received(match: (message: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> {
    for (;;) {
      const found = delivered.find(match);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }
  /** Resolves once the request `id` was delivered and its client has gone away. */
  async function disconnected(id: RequestId): Promise<void> {
    await received((m) => 'method' in m && 'id' in m && m.id === id);
    const signal = signals.get(id);
    if (signal === undefined) throw new Error(`request ${id} came without a signal`);
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve));
  }
  return { hooks, sessions, delivered, closed, received, disconnected };
}

/** A legacy client's requests to one endpoint. */
export class LegacyClient {
  constructor(private readonly url: URL) {}

  post(
    message: JsonRpcMessage,
    options: {
      sessionId?: string;
      version?: string;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': options.version ?? '2025-06-18',
      ...options.headers,
    };
    if (options.sessionId !== undefined) headers['mcp-session-id'] = options.sessionId;
    const body = JSON.stringify(message);
    return fetch(this.url, { method: 'POST', headers, body, signal: options.signal });
  }

  /** GET with the session id; `extra` headers override the defaults. */
  get(
    sessionId: string | undefined,
    extra: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...extra,
    };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    return fetch(this.url, { method: 'GET', headers, signal });
  }

  delete(sessionId?: string): Promise<Response> {
    const headers: Record<string, string> =
      sessionId === undefined ? {} : { 'mcp-session-id': sessionId };
    return fetch(this.url, { method: 'DELETE', headers });
  }

  /** initialize + initialized; returns the session id. */
  async handshake(version = '2025-06-18'): Promise<string> {
    const response = await this.post(initializeRequest(version));
    expect(response.status).toBe(200);
    const sessionId = response.headers.get('mcp-session-id') ?? '';
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    await response.json();
    const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };
    expect((await this.post(initialized, { sessionId, version })).status).toBe(202);
    return sessionId;
  }
}

/** A legacy `initialize` request. */
export function initializeRequest(version = '2025-06-18', id: RequestId = 0): JsonRpcRequest {
  const clientInfo = { name: 'c', version: '1' };
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo },
  };
}
