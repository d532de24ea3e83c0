/** A raw legacy Streamable HTTP client (2025-11-25): the handshake, the GET stream, resuming it. */
import type { JsonRpcMessage } from '@twofold/protocol/experimental';
import { SseParser } from '@twofold/transports/experimental';

const VERSION = '2025-11-25';

/** How the helpers send: the runtime's `fetch` unless a test records what answered. */
export type Send = (
  url: URL | string,
  init: RequestInit & { headers: Record<string, string> },
) => Promise<Response>;

function headers(sessionId: string | undefined, extra: Record<string, string> = {}) {
  return {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': VERSION,
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    ...extra,
  };
}

/** POSTs one message of a legacy session. */
export function legacyPost(
  url: URL | string,
  message: JsonRpcMessage,
  sessionId?: string,
  send: Send = fetch,
) {
  const body = JSON.stringify(message);
  return send(url, { method: 'POST', headers: headers(sessionId), body });
}

/** initialize + initialized; returns the session id. */
export async function legacyHandshake(url: URL | string, send: Send = fetch): Promise<string> {
  const clientInfo = { name: 'legacy-test', version: '1' };
  const params = { protocolVersion: VERSION, capabilities: {}, clientInfo };
  const initialize = { jsonrpc: '2.0' as const, id: 0, method: 'initialize', params };
  const response = await legacyPost(url, initialize, undefined, send);
  if (response.status !== 200) throw new Error(`initialize: HTTP ${response.status}`);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId === null) throw new Error('initialize gave no session id');
  const initialized = await legacyPost(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    sessionId,
    send,
  );
  if (initialized.status !== 202) throw new Error(`initialized: HTTP ${initialized.status}`);
  return sessionId;
}

/** The session's GET stream, resumed after `lastEventId` when given. */
export async function legacyStream(
  url: URL | string,
  sessionId: string,
  lastEventId?: string,
  send: Send = fetch,
): Promise<SseStream> {
  const extra: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {};
  const abort = new AbortController();
  const response = await send(url, {
    method: 'GET',
    headers: headers(sessionId, { accept: 'text/event-stream', ...extra }),
    signal: abort.signal,
  });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`GET stream: HTTP ${response.status}`);
  }
  return new SseStream(response.body, abort);
}

/** Reads an SSE stream's events: messages with their ids, and the last event id seen. */
export class SseStream {
  private readonly events: { message: JsonRpcMessage; id: string }[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly parser: SseParser;
  private ended = false;

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly abort: AbortController,
  ) {
    this.reader = body.getReader();
    this.parser = new SseParser({
      onEvent: (event) => {
        if (event.data !== '') {
          this.events.push({ message: JSON.parse(event.data), id: event.lastEventId });
        }
      },
    });
  }

  /** The next message and its event id; undefined once the stream has ended. */
  async next(): Promise<{ message: JsonRpcMessage; id: string } | undefined> {
    while (this.events.length === 0 && !this.ended) await this.pump();
    return this.events.shift();
  }

  /** Reads until an event id (the priming event's, on 2025-11-25) has arrived. */
  async untilEventId(): Promise<string> {
    while (this.parser.lastEventId === '' && !this.ended) await this.pump();
    return this.parser.lastEventId;
  }

  /** Drops the stream from the client side, as a lost connection would. */
  async drop(): Promise<void> {
    this.abort.abort();
    await this.reader.cancel().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    const chunk = await this.reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (chunk.done) this.ended = true;
    else this.parser.feed(chunk.value);
  }
}
