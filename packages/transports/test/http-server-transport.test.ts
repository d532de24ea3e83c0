/**
 * `HttpServerTransport`: the server core as one `Transport` for a single logical client.
 */
import {
  buildRequestHeaders,
  type JsonRpcMessage,
  type JsonRpcRequest,
  LocalErrorCode,
  type MessageContext,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpServerTransport } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function request(id: number | string, method = 'tools/list'): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method, params: { _meta: META } };
}

let endpoint: ServedEndpoint | undefined;
let transport: HttpServerTransport;
let inbox: { message: JsonRpcMessage; context?: MessageContext }[];
let waiting: (() => void) | undefined;

async function setup(): Promise<void> {
  transport = new HttpServerTransport();
  inbox = [];
  transport.onmessage = (message, context) => {
    inbox.push({ message, context });
    waiting?.();
  };
  endpoint = await serve(transport.handler);
}

async function nextMessage(): Promise<{ message: JsonRpcMessage; context?: MessageContext }> {
  while (inbox.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
  const item = inbox.shift();
  if (item === undefined) throw new Error('unreachable');
  return item;
}

function post(message: JsonRpcRequest, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint?.url ?? '', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...buildRequestHeaders(message, '2026-07-28'),
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

afterEach(async () => {
  await transport.close();
  await endpoint?.close();
  endpoint = undefined;
});

describe('HttpServerTransport', () => {
  it('delivers a request with its headers and signal, and routes the response to its POST', async () => {
    await setup();
    await transport.start();
    const response = post(request(1), { authorization: 'Bearer t' });
    const { message, context } = await nextMessage();
    expect(message).toEqual(request(1));
    expect(context?.headers?.authorization).toBe('Bearer t');
    expect(context?.signal?.aborted).toBe(false);
    await transport.send({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(await (await response).json()).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
  });

  it('puts notifications with a relatedRequestId on that request SSE stream', async () => {
    await setup();
    await transport.start();
    const response = post(request('a'));
    await nextMessage();
    await transport.send(
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { relatedRequestId: 'a' },
    );
    await transport.send({ jsonrpc: '2.0', id: 'a', result: {} });
    const text = await (await response).text();
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);
  });

  it('rejects what it cannot route instead of dropping it', async () => {
    await setup();
    await expect(transport.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toMatchObject({
      code: LocalErrorCode.NotConnected,
    });
    await transport.start();
    await expect(transport.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toMatchObject({
      code: LocalErrorCode.InvalidMessage,
    });
    await expect(
      transport.send({ jsonrpc: '2.0', method: 'notifications/message' }),
    ).rejects.toMatchObject({ code: LocalErrorCode.InvalidMessage });
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).rejects.toMatchObject({
      code: LocalErrorCode.InvalidMessage,
    });
  });

  it('answers a duplicate pending id with 400', async () => {
    await setup();
    await transport.start();
    const first = post(request(1));
    await nextMessage();
    const duplicate = await post(request(1));
    expect(duplicate.status).toBe(400);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await first).status).toBe(200);
  });

  it('answers requests before start with 503, and pending ones with 503 on close', async () => {
    await setup();
    const early = await post(request(1));
    expect(early.status).toBe(503);
    expect(inbox).toEqual([]);
    await transport.start();
    const pending = post(request(2));
    await nextMessage();
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
    expect((await pending).status).toBe(503);
    expect((await post(request(3))).status).toBe(503);
    await expect(transport.send({ jsonrpc: '2.0', id: 3, result: {} })).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
  });
});
