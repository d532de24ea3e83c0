import { buildRequestHeaders } from '@twofold/protocol/experimental';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerOptions } from '../src/core/options';
import { InMemoryChangeBus } from '../src/listen/change-bus';
import { createServerHttpHandler } from '../src/serve/http-handler';
import { McpServer } from '../src/server';
import { eventually, MODERN, modernParams } from './support/peer';
import { schemaErrors, specAvailable } from './support/spec-schema';

const ID = 'io.modelcontextprotocol/subscriptionId';
const endpoints: ServedEndpoint[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
});

async function start(options: Partial<McpServerOptions> = {}, keepAliveIntervalMs?: number) {
  const bus = new InMemoryChangeBus();
  const server = new McpServer({
    name: 'listen-http',
    version: '1.0.0',
    listen: { bus },
    ...options,
  });
  server.registerTool({ name: 'echo', handler: () => 'echo' });
  const handler = createServerHttpHandler(server, { keepAliveIntervalMs });
  const endpoint = await serve(handler, { port: 0 });
  endpoints.push(endpoint);
  return { url: endpoint.url, server, handler, bus };
}

function postListen(
  url: URL,
  id: number,
  notifications: Record<string, unknown>,
  signal?: AbortSignal,
) {
  const message = {
    jsonrpc: '2.0' as const,
    id,
    method: 'subscriptions/listen',
    params: modernParams({ notifications }),
  };
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...buildRequestHeaders(message, MODERN),
    },
    body: JSON.stringify(message),
    signal,
  });
}

/** Reads an SSE body incrementally: JSON-RPC messages from `data:` lines, plus comment lines. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: Record<string, unknown>[] = [];
  const comments: string[] = [];
  let buffer = '';
  let ended = false;
  const pump = async (): Promise<void> => {
    const chunk = await reader.read();
    if (chunk.done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(chunk.value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('data:') && line.length > 5) messages.push(JSON.parse(line.slice(5)));
      else if (line.startsWith(':')) comments.push(line);
    }
  };
  return {
    messages,
    comments,
    get ended() {
      return ended;
    },
    /** Reads until `predicate` holds or the stream ends (bounded by the test timeout). */
    async until(predicate: () => boolean): Promise<void> {
      while (!predicate() && !ended) await pump();
    },
    cancel: () => reader.cancel(),
  };
}

function expectSpecValid(name: string, message: unknown) {
  if (specAvailable) expect(schemaErrors('2026-07-28', name, message)).toEqual([]);
}

describe('subscriptions/listen over HTTP', () => {
  it('answers with an SSE stream: the ack first, then the requested changes, tagged', async () => {
    const { url, server } = await start();
    const response = await postListen(url, 5, {
      toolsListChanged: true,
      resourcesListChanged: true,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = sseReader(response);
    await stream.until(() => stream.messages.length >= 1);
    expect(stream.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      // The server has tools only: resource list changes are not honoured.
      params: { _meta: { [ID]: 5 }, notifications: { toolsListChanged: true } },
    });
    expectSpecValid('SubscriptionsAcknowledgedNotification', stream.messages[0]);

    server.registerPrompt({ name: 'p', get: () => ({ messages: [] }) }); // not requested
    server.registerTool({ name: 'added', handler: () => 'x' });
    await stream.until(() => stream.messages.length >= 2);
    expect(stream.messages[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [ID]: 5 } },
    });
    expectSpecValid('ToolListChangedNotification', stream.messages[1]);
    await stream.cancel();
  });

  it('keeps the stream alive with comment lines', async () => {
    const { url } = await start({}, 10);
    const stream = sseReader(await postListen(url, 1, { toolsListChanged: true }));
    await stream.until(() => stream.comments.length >= 2);
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(stream.messages).toHaveLength(1);
    await stream.cancel();
  });

  it('ends the subscription when the client closes the stream', async () => {
    const { url, server, bus } = await start();
    const controller = new AbortController();
    const stream = sseReader(
      await postListen(url, 2, { toolsListChanged: true }, controller.signal),
    );
    await stream.until(() => stream.messages.length >= 1);
    expect(bus.listenerCount).toBe(1);
    controller.abort();
    await eventually(() => bus.listenerCount === 0);
    // Changes after the close reach nobody and break nothing.
    server.registerTool({ name: 'after-close', handler: () => 'x' });
    const again = sseReader(await postListen(url, 3, {}));
    await again.until(() => again.messages.length >= 1);
    expect(bus.listenerCount).toBe(1);
    await again.cancel();
  });

  it('sends the final result and ends the stream when the handler closes', async () => {
    const { url, server, handler, bus } = await start();
    const stream = sseReader(await postListen(url, 7, { toolsListChanged: true }));
    await stream.until(() => stream.messages.length >= 1);
    await handler.close();
    await stream.until(() => false);
    expect(stream.ended).toBe(true);
    expect(stream.messages).toHaveLength(2);
    expect(stream.messages[1]).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        resultType: 'complete',
        _meta: { [ID]: 7, 'io.modelcontextprotocol/serverInfo': server.serverInfo },
      },
    });
    expectSpecValid('SubscriptionsListenResultResponse', stream.messages[1]);
    expect(bus.listenerCount).toBe(0);
  });

  it('refuses a listen beyond the cap with a JSON -32603 answer', async () => {
    const { url } = await start({ listen: { maxSubscriptions: 1 } });
    const first = sseReader(await postListen(url, 1, {}));
    await first.until(() => first.messages.length >= 1);
    const refused = await postListen(url, 2, {});
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(await refused.json()).toMatchObject({
      id: 2,
      error: { code: -32603, data: { maxSubscriptions: 1 } },
    });
    await first.cancel();
  });
});
