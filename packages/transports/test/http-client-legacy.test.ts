import type { ServerResponse } from 'node:http';
import {
  type JsonRpcMessage,
  type JsonRpcRequest,
  type LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/http-client/streamable-http';
import { undiciFetch } from '../src/node/undici-fetch';
import {
  type Observed,
  observe,
  openSse,
  type RecordedRequest,
  sendJson,
  type TestServer,
  useTestServer,
} from './support/http-test-server';

const SESSION = 'session-1f9b';
const initialize = (id: number | string = 0) =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
  }) as JsonRpcRequest;
const request = (id: number | string, method: string) =>
  ({ jsonrpc: '2.0', id, method }) as JsonRpcRequest;
const answer = (id: number | string) => ({ jsonrpc: '2.0', id, result: {} });
const serverPing = (id: string) => ({ jsonrpc: '2.0', id, method: 'ping' });

let server: TestServer;
let client: StreamableHttpClientTransport;
let seen: Observed;

/** A legacy server: initialize mints the session; other POSTs answer or accept. */
function legacyServer(
  extra?: (req: RecordedRequest, res: ServerResponse) => boolean | Promise<boolean>,
) {
  server.handle(async (req, res) => {
    if (extra && (await extra(req, res))) return;
    const message = req.json as Partial<JsonRpcRequest> | undefined;
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (message?.id === undefined || message.method === undefined) {
      return void res.writeHead(202).end();
    }
    const session = message.method === 'initialize' ? { 'Mcp-Session-Id': SESSION } : undefined;
    sendJson(res, 200, answer(message.id), session);
  });
}

async function connect(
  options: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[0]> = {},
) {
  client = new StreamableHttpClientTransport({
    url: server.url,
    era: 'legacy',
    reconnect: { initialDelayMs: 10, maxDelayMs: 40, maxRetries: 3 },
    ...undiciFetch(),
    ...options,
  });
  seen = observe(client);
  await client.start();
}

async function initialized(version = '2025-11-25') {
  await client.send(initialize());
  client.setProtocolVersion(version);
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

useTestServer({
  onServer: (s) => {
    server = s;
  },
  closeClient: () => client?.close(),
});

describe('StreamableHttpClientTransport (legacy)', () => {
  it('keeps the session id from initialize and sends it, with the version, afterwards', async () => {
    legacyServer();
    await connect();
    expect(client.sessionId).toBeUndefined();
    await initialized();
    await client.send(request(1, 'tools/list'));
    expect(client.sessionId).toBe(SESSION);
    expect(client.protocolVersion).toBe('2025-11-25');
    const [init, note, list] = server.requests;
    expect(init?.headers['mcp-session-id']).toBeUndefined();
    expect(init?.headers['mcp-protocol-version']).toBeUndefined();
    for (const later of [note, list]) {
      expect(later?.headers['mcp-session-id']).toBe(SESSION);
      expect(later?.headers['mcp-protocol-version']).toBe('2025-11-25');
      // The modern metadata headers are not part of the legacy wire.
      expect(later?.headers['mcp-method']).toBeUndefined();
    }
    expect(seen.messages.map((m) => m.context)).toEqual([
      { httpStatus: 200, sessionId: SESSION },
      { httpStatus: 200, sessionId: SESSION },
    ]);
  });

  it('sends no MCP-Protocol-Version header for 2024-11-05', async () => {
    legacyServer();
    await connect();
    await initialized('2024-11-05');
    await client.send(request(1, 'tools/list'));
    expect(server.requests[2]?.headers['mcp-protocol-version']).toBeUndefined();
    expect(server.requests[2]?.headers['mcp-session-id']).toBe(SESSION);
  });

  it('POSTs the answers to server requests (202)', async () => {
    legacyServer();
    await connect();
    await initialized();
    await client.send(answer('srv-1') as JsonRpcMessage);
    expect(server.requests[2]?.json).toEqual(answer('srv-1'));
  });

  it('a 404 on a session request is SESSION_EXPIRED; re-initialize goes without the id', async () => {
    let expired = false;
    legacyServer((req, res) => {
      if (expired && req.headers['mcp-session-id'] === SESSION) {
        res.writeHead(404).end();
        return true;
      }
      return false;
    });
    await connect();
    await initialized();
    expired = true;
    await expect(client.send(request(1, 'tools/list'))).rejects.toMatchObject({
      code: LocalErrorCode.SessionExpired,
      details: { status: 404, id: 1 },
    });
    expect(client.sessionId).toBeUndefined();
    await client.send(initialize(2));
    expect(server.requests.at(-1)?.headers['mcp-session-id']).toBeUndefined();
    expect(client.sessionId).toBe(SESSION);
  });

  it('openEventStream is a no-op when the server offers no GET stream (405)', async () => {
    legacyServer();
    await connect();
    await initialized();
    await client.openEventStream();
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET' });
    expect(server.requests.at(-1)?.headers).toMatchObject({
      accept: 'text/event-stream',
      'mcp-session-id': SESSION,
    });
    expect(seen.errors).toEqual([]);
  });

  it('reconnects the GET stream with Last-Event-ID after the server retry', async () => {
    const gets: RecordedRequest[] = [];
    legacyServer(async (req, res) => {
      if (req.method !== 'GET') return false;
      gets.push(req);
      const sse = openSse(res);
      if (gets.length === 1) {
        await sse.event({ id: 'e1', retry: 30, data: serverPing('a') });
        sse.end();
      } else await sse.event({ id: 'e2', data: serverPing('b') });
      return true;
    });
    await connect({ reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000, maxRetries: 3 } });
    await initialized();
    await client.openEventStream();
    await seen.message(2);
    expect(seen.messages.slice(1).map((m) => m.message)).toEqual([
      serverPing('a'),
      serverPing('b'),
    ]);
    expect(gets.map((g) => g.headers['last-event-id'])).toEqual([undefined, 'e1']);
    expect(seen.errors).toEqual([]);
  });

  it('gives up on the GET stream after maxRetries failed reconnections', async () => {
    let gets = 0;
    legacyServer(async (req, res) => {
      if (req.method !== 'GET') return false;
      gets++;
      if (gets === 1) {
        const sse = openSse(res);
        await sse.event({ id: 'only', data: serverPing('x') });
        sse.end();
      } else res.writeHead(503).end();
      return true;
    });
    await connect();
    await initialized();
    await client.openEventStream();
    const error = await seen.error(0);
    expect(error).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { lastEventId: 'only' },
    });
    expect((error.cause as LocalError).details).toMatchObject({ status: 503 });
    expect(gets).toBe(1 + 3);
  });

  it('a 404 on the GET stream reconnection is SESSION_EXPIRED on onerror', async () => {
    let gets = 0;
    legacyServer(async (req, res) => {
      if (req.method !== 'GET') return false;
      if (++gets === 1) openSse(res).end();
      else res.writeHead(404).end();
      return true;
    });
    await connect();
    await initialized();
    await client.openEventStream();
    expect(await seen.error(0)).toMatchObject({ code: LocalErrorCode.SessionExpired });
    expect(client.sessionId).toBeUndefined();
  });

  it('resumes a POST stream through GET with Last-Event-ID when it ends early', async () => {
    legacyServer(async (req, res) => {
      const message = req.json as JsonRpcRequest | undefined;
      if (message?.method === 'tools/call') {
        const sse = openSse(res);
        // 2025-11-25 polling: a priming event and a retry, then the server drops the stream.
        await sse.event({ id: 'call-0', retry: 5, data: '' });
        sse.end();
        return true;
      }
      if (req.method === 'GET' && req.headers['last-event-id'] === 'call-0') {
        const sse = openSse(res);
        await sse.event({
          id: 'call-1',
          data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
        });
        await sse.event({ id: 'call-2', data: answer(7) });
        return true;
      }
      return false;
    });
    await connect();
    await initialized();
    await client.send(request(7, 'tools/call'));
    await seen.message(2);
    expect(seen.messages.at(-1)?.message).toEqual(answer(7));
    expect(seen.errors).toEqual([]);
  });

  it('a POST stream without event ids that ends early is CONNECTION_CLOSED', async () => {
    legacyServer((req, res) => {
      if ((req.json as JsonRpcRequest | undefined)?.method !== 'tools/call') return false;
      openSse(res).end();
      return true;
    });
    await connect();
    await initialized();
    await client.send(request(8, 'tools/call'));
    expect(await seen.error(0)).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { requestId: 8 },
    });
  });

  it('a POST stream the server cannot resume (GET 405) is CONNECTION_CLOSED naming the request', async () => {
    legacyServer(async (req, res) => {
      if ((req.json as JsonRpcRequest | undefined)?.method !== 'tools/call') return false;
      const sse = openSse(res);
      await sse.event({ id: 'p-1', data: '' });
      sse.end();
      return true;
    });
    await connect();
    await initialized();
    await client.send(request(9, 'tools/call'));
    expect(await seen.error(0)).toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
      details: { requestId: 9, id: 9, lastEventId: 'p-1' },
    });
    expect(server.requests.at(-1)?.headers['last-event-id']).toBe('p-1');
  });

  it('close() DELETEs the session and aborts the GET stream', async () => {
    legacyServer(async (req, res) => {
      if (req.method !== 'GET') return false;
      await openSse(res).raw(': open\n\n');
      return true;
    });
    await connect();
    await initialized();
    await client.openEventStream();
    const stream = server.requests.at(-1) as RecordedRequest;
    await client.close();
    await stream.closed;
    expect(stream.abandoned()).toBe(true);
    const remove = server.requests.at(-1);
    expect(remove?.method).toBe('DELETE');
    expect(remove?.headers['mcp-session-id']).toBe(SESSION);
    expect(seen.errors).toEqual([]);
    expect(seen.closes).toBe(1);
  });

  it('a DELETE answered 405 is fine; a DELETE answered 500 is reported before onclose', async () => {
    for (const status of [405, 500]) {
      legacyServer((req, res) => {
        if (req.method !== 'DELETE') return false;
        res.writeHead(status).end();
        return true;
      });
      await connect();
      await initialized();
      await client.close();
      if (status === 405) expect(seen.errors).toEqual([]);
      else {
        expect(seen.errors).toHaveLength(1);
        expect(seen.errors[0]).toMatchObject({
          code: LocalErrorCode.HttpError,
          details: { status: 500 },
        });
      }
      expect(seen.closes).toBe(1);
    }
  });
});
