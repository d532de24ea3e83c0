/**
 * Legacy Streamable HTTP sessions (2025-11-25 / 2025-06-18) in the server core: the session
 * lifecycle, the GET stream, server requests on a POST stream, the queue bound, and stateless
 * mode. Resumability has its own file.
 */
import { ErrorCode, LocalErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, type LegacyHooks } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import {
  errorBody,
  initializeRequest,
  LegacyClient,
  legacyResponder,
  MODERN_VERSION,
  modernRequest,
  SseReader,
} from './http-server-support';

let endpoint: ServedEndpoint | undefined;

async function start(legacy: LegacyHooks): Promise<LegacyClient> {
  endpoint = await serve(createHttpHandler({ legacy }));
  return new LegacyClient(endpoint.url);
}

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const toolsList = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/list' });

describe('session lifecycle', () => {
  it('initialize → session id → POST → GET stream gets unrelated messages → DELETE → 404', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    const sessionId = await client.handshake();
    const list = await client.post(toolsList(1), { sessionId });
    expect(list.status).toBe(200);
    expect(list.headers.get('mcp-session-id')).toBe(sessionId);
    expect(await list.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });

    const stream = await client.get(sessionId);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(stream.body);
    const session = server.sessions[0];
    const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' };
    await session?.send(changed);
    expect((await reader.next())?.message).toEqual(changed);

    expect((await client.delete(sessionId)).status).toBe(200);
    expect(server.closed).toEqual([sessionId]);
    expect(await reader.next()).toBeUndefined();

    const after = await client.post(toolsList(2), { sessionId });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ id: 2, error: { code: ErrorCode.InvalidRequest } });
    expect((await client.get(sessionId)).status).toBe(404);
    expect((await client.delete(sessionId)).status).toBe(404);
    await expect(session?.send(changed)).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
  });

  it('opens the GET stream with a comment, before there is any message to send', async () => {
    const client = await start(legacyResponder().hooks);
    const sessionId = await client.handshake();
    const stream = await client.get(sessionId);
    const reader = stream.body?.getReader();
    const first = await reader?.read();
    // Servers such as Bun send the headers with the first body byte: nothing may wait for a message.
    expect(new TextDecoder().decode(first?.value)).toBe(': open\n\n');
    await reader?.cancel();
  });

  it('requires the session id on later POSTs (400) and on GET (400)', async () => {
    const client = await start(legacyResponder().hooks);
    await client.handshake();
    const response = await client.post(toolsList(1));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: ErrorCode.InvalidRequest },
    });
    expect((await client.get(undefined)).status).toBe(400);
  });

  it('refuses a GET that does not accept SSE (406) and a second GET stream (409)', async () => {
    const client = await start(legacyResponder().hooks);
    const sessionId = await client.handshake();
    expect((await client.get(sessionId, { accept: 'application/json' })).status).toBe(406);
    const first = await client.get(sessionId);
    expect(first.status).toBe(200);
    expect((await client.get(sessionId)).status).toBe(409);
    await first.body?.cancel();
  });

  it('refuses an unsupported MCP-Protocol-Version on a session POST', async () => {
    const client = await start(legacyResponder().hooks);
    const sessionId = await client.handshake();
    const response = await client.post(toolsList(1), { sessionId, version: '1999-01-01' });
    expect(response.status).toBe(400);
  });

  it('closes the session when initialize is answered with an error', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    const response = await client.post(initializeRequest('fail'));
    const sessionId = response.headers.get('mcp-session-id') ?? '';
    expect((await errorBody(response)).error.code).toBe(ErrorCode.InvalidParams);
    expect(server.closed).toEqual([sessionId]);
    expect((await client.post(toolsList(1), { sessionId })).status).toBe(404);
  });

  it('answers 500 when onSession neither starts the session nor succeeds', async () => {
    const errors: Error[] = [];
    const client = await start({
      onSession: (session) => {
        session.onerror = (error) => errors.push(error);
      },
    });
    const response = await client.post(initializeRequest());
    expect(response.status).toBe(500);
    expect((await errorBody(response)).error.code).toBe(ErrorCode.InternalError);
    expect(errors.map((e) => e.message)).toEqual(['onSession did not start the session']);
    await endpoint?.close();
    const failing = await start({
      onSession: () => {
        throw new Error('cannot open');
      },
    });
    expect((await failing.post(initializeRequest())).status).toBe(500);
  });

  it('closes a session idle for idleTimeoutMs', async () => {
    // Only initialize, and the close is polled for rather than raced: on a loaded machine any
    // later request, or a listener set after the fact, could miss a 20 ms window.
    const server = legacyResponder({ idleTimeoutMs: 20 });
    const client = await start(server.hooks);
    const opened = await client.post(initializeRequest());
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await opened.json();
    for (let i = 0; i < 500 && !server.closed.includes(sessionId); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(server.closed).toContain(sessionId);
    expect((await client.post(toolsList(1), { sessionId })).status).toBe(404);
  });

  it('answers a modern POST on a legacy-only endpoint with 400 and the legacy versions', async () => {
    const client = await start(legacyResponder().hooks);
    const response = await client.post(modernRequest('tools/list'), { version: MODERN_VERSION });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toMatchObject({
      code: ErrorCode.UnsupportedProtocolVersion,
      data: { supported: ['2025-11-25', '2025-06-18', '2024-11-05'], requested: MODERN_VERSION },
    });
  });

  it('closes every session when the handler closes, answering a waiting POST with 404', async () => {
    const server = legacyResponder();
    const handler = createHttpHandler({ legacy: server.hooks });
    endpoint = await serve(handler);
    const client = new LegacyClient(endpoint.url);
    const sessionId = await client.handshake();
    const waiting = client.post({ jsonrpc: '2.0', id: 5, method: 'never/answered' }, { sessionId });
    await server.received((m) => 'id' in m && m.id === 5);
    await handler.close();
    const response = await waiting;
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      id: 5,
      error: { code: ErrorCode.InvalidRequest },
    });
    expect(server.closed).toEqual([sessionId]);
  });
});

describe('routing of server messages', () => {
  it('carries a server request on the POST stream and takes the client response as a POST (202)', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    const sessionId = await client.handshake();
    const callRequest = {
      jsonrpc: '2.0' as const,
      id: 'call-1',
      method: 'tools/call',
      params: { name: 'ask' },
    };
    const call = client.post(callRequest, { sessionId });
    await server.received((m) => 'id' in m && m.id === 'call-1');
    const session = server.sessions[0];
    const sampling = {
      jsonrpc: '2.0' as const,
      id: 'srv-1',
      method: 'sampling/createMessage',
      params: {},
    };
    await session?.send(sampling, { relatedRequestId: 'call-1' });
    const response = await call;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(response.body);
    expect((await reader.next())?.message).toEqual(sampling);

    const answer = { jsonrpc: '2.0' as const, id: 'srv-1', result: { content: [] } };
    expect((await client.post(answer, { sessionId })).status).toBe(202);
    await server.received((m) => 'result' in m && m.id === 'srv-1');

    const result = { jsonrpc: '2.0' as const, id: 'call-1', result: { content: [] } };
    await session?.send(result, { relatedRequestId: 'call-1' });
    expect(await reader.rest()).toEqual([result]);
  });

  it('queues unrelated messages until a GET stream opens, up to maxQueuedMessages', async () => {
    const server = legacyResponder({ maxQueuedMessages: 2 });
    const client = await start(server.hooks);
    const sessionId = await client.handshake();
    const session = server.sessions[0];
    await session?.send({ jsonrpc: '2.0', method: 'one' });
    await session?.send({ jsonrpc: '2.0', method: 'two' });
    await expect(session?.send({ jsonrpc: '2.0', method: 'three' })).rejects.toMatchObject({
      code: LocalErrorCode.LimitExceeded,
    });
    const reader = new SseReader((await client.get(sessionId)).body);
    expect((await reader.next())?.message).toMatchObject({ method: 'one' });
    expect((await reader.next())?.message).toMatchObject({ method: 'two' });
    await reader.cancel();
  });

  it('answers JSON-RPC errors of a legacy session with HTTP 200, as legacy clients expect', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    const sessionId = await client.handshake();
    const pending = client.post({ jsonrpc: '2.0', id: 4, method: 'unknown/method' }, { sessionId });
    await server.received((m) => 'id' in m && m.id === 4);
    const error = { code: ErrorCode.MethodNotFound, message: 'Method not found' };
    await server.sessions[0]?.send({ jsonrpc: '2.0', id: 4, error });
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 4, error });
  });

  it('rejects a response for a request that is not pending', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    await client.handshake();
    const stray = server.sessions[0]?.send({ jsonrpc: '2.0', id: 99, result: {} });
    await expect(stray).rejects.toMatchObject({ code: LocalErrorCode.InvalidMessage });
  });

  it('without an event store, rejects what is sent after the client of a request left', async () => {
    const server = legacyResponder();
    const client = await start(server.hooks);
    const sessionId = await client.handshake();
    const abort = new AbortController();
    const call = client
      .post({ jsonrpc: '2.0', id: 8, method: 'slow' }, { sessionId, signal: abort.signal })
      .catch(() => undefined);
    await server.received((m) => 'id' in m && m.id === 8);
    abort.abort();
    await call;
    await server.disconnected(8);
    const session = server.sessions[0];
    const progress = session?.send({ jsonrpc: '2.0', method: 'progress' }, { relatedRequestId: 8 });
    await expect(progress).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
    const response = session?.send({ jsonrpc: '2.0', id: 8, result: {} });
    await expect(response).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
  });
});

describe('stateless legacy mode', () => {
  it('gives every POST a one-shot session without an id, closed after its answer', async () => {
    const server = legacyResponder({ stateless: true });
    const client = await start(server.hooks);
    const init = await client.post(initializeRequest());
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await init.json();
    const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };
    expect((await client.post(initialized)).status).toBe(202);
    const list = await client.post(toolsList(1));
    expect(await list.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(server.sessions.map((s) => s.sessionId)).toEqual([undefined, undefined, undefined]);
    expect(server.closed).toEqual([undefined, undefined, undefined]);
    const late = server.sessions[2]?.send({ jsonrpc: '2.0', method: 'late' });
    await expect(late).rejects.toMatchObject({ code: LocalErrorCode.ConnectionClosed });
  });

  it('answers GET and DELETE with 405', async () => {
    const client = await start(legacyResponder({ stateless: true }).hooks);
    const get = await client.get(undefined);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await client.delete()).status).toBe(405);
  });
});
