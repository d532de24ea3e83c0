import {
  createNotification,
  createRequest,
  createResultResponse,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
  type Transport,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { createInMemoryPair } from '../src/memory/in-memory-pair';

/** Records one side's callbacks in order. */
function record(transport: Transport) {
  const events: string[] = [];
  const messages: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => {
    events.push('message');
    messages.push(message);
  };
  transport.onerror = (error) => {
    events.push('error');
    errors.push(error);
  };
  transport.onclose = () => events.push('close');
  return { events, messages, errors };
}

async function startedPair() {
  const [client, server] = createInMemoryPair();
  const seen = { client: record(client), server: record(server) };
  await server.start();
  await client.start();
  return { client, server, seen };
}

/** Lets every queued microtask and one macrotask run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return (error as LocalError).code;
}

describe('createInMemoryPair', () => {
  it('delivers asynchronously, never inside send()', async () => {
    const { client, seen } = await startedPair();
    const sent = client.send(createNotification('a'));
    expect(seen.server.messages).toEqual([]);
    await sent;
    await flush();
    expect(seen.server.messages).toEqual([createNotification('a')]);
  });

  it('delivers in send order in both directions', async () => {
    const { client, server, seen } = await startedPair();
    for (let i = 0; i < 50; i++) void client.send(createRequest(i, 'm', { i }));
    for (let i = 0; i < 50; i++) void server.send(createResultResponse(i, { i }));
    await flush();
    expect(seen.server.messages.map((m) => ('params' in m ? m.params?.i : undefined))).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(seen.client.messages.map((m) => ('id' in m ? m.id : undefined))).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('hands the receiver a copy, so later changes by the sender do not leak', async () => {
    const { client, seen } = await startedPair();
    const params = { list: [1, 2] };
    const message = createNotification('n', params);
    await client.send(message);
    params.list.push(3);
    await flush();
    expect(seen.server.messages[0]).toEqual(createNotification('n', { list: [1, 2] }));
    expect(seen.server.messages[0]).not.toBe(message);
  });

  it('keeps what is sent before the peer starts, and delivers it in order on start', async () => {
    const [client, server] = createInMemoryPair();
    const seen = record(server);
    await client.start();
    await client.send(createNotification('first'));
    await flush();
    await client.send(createNotification('second'));
    expect(seen.messages).toEqual([]);
    await server.start();
    await client.send(createNotification('third'));
    await flush();
    expect(seen.messages.map((m) => ('method' in m ? m.method : ''))).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('rejects send() before start with NOT_CONNECTED and after close with CONNECTION_CLOSED', async () => {
    const [client, server] = createInMemoryPair();
    expect(await codeOf(client.send(createNotification('n')))).toBe(LocalErrorCode.NotConnected);
    await server.start();
    await client.start();
    await client.close();
    expect(await codeOf(client.send(createNotification('n')))).toBe(
      LocalErrorCode.ConnectionClosed,
    );
    expect(await codeOf(client.start())).toBe(LocalErrorCode.ConnectionClosed);
  });

  it('rejects a send to a peer that has closed', async () => {
    const { client, server } = await startedPair();
    await server.close();
    expect(await codeOf(client.send(createNotification('n')))).toBe(
      LocalErrorCode.ConnectionClosed,
    );
  });

  it('rejects a second start()', async () => {
    const { client } = await startedPair();
    await expect(client.start()).rejects.toThrow(/twice/);
  });

  it('closes the peer after the messages already sent to it, onclose once on each side', async () => {
    const { client, server, seen } = await startedPair();
    await client.send(createNotification('before close'));
    await client.close();
    await client.close();
    expect(seen.client.events).toEqual(['close']);
    await flush();
    expect(seen.server.events).toEqual(['message', 'close']);
    await server.close();
    expect(seen.server.events).toEqual(['message', 'close']);
  });

  it('closes a peer that never started once it starts, after delivering what was sent', async () => {
    const [client, server] = createInMemoryPair();
    const seen = record(server);
    await client.start();
    await client.send(createNotification('n'));
    await client.close();
    await flush();
    expect(seen.events).toEqual([]);
    await server.start();
    await flush();
    expect(seen.events).toEqual(['message', 'close']);
  });

  it('stops delivering once the receiver closes, even from inside onmessage', async () => {
    const { client, server, seen } = await startedPair();
    server.onmessage = () => {
      seen.server.events.push('message');
      void server.close();
    };
    for (let i = 0; i < 5; i++) void client.send(createNotification('n'));
    await flush();
    expect(seen.server.events).toEqual(['message', 'close']);
  });

  it('accepts and ignores relatedRequestId', async () => {
    const { server, seen } = await startedPair();
    await server.send(createResultResponse('r', {}), { relatedRequestId: 'r' });
    await flush();
    expect(seen.client.messages).toEqual([createResultResponse('r', {})]);
  });

  it('reports an invalid envelope on the receiver and keeps the connection', async () => {
    const { client, seen } = await startedPair();
    await client.send({ jsonrpc: '2.0', id: 1 } as unknown as JsonRpcMessage);
    await client.send(createNotification('after'));
    await flush();
    expect(seen.server.events).toEqual(['error', 'message']);
    expect(seen.server.errors[0]).toBeInstanceOf(LocalError);
    expect((seen.server.errors[0] as LocalError).code).toBe(LocalErrorCode.InvalidMessage);
  });

  it('rejects values JSON cannot carry with INVALID_MESSAGE', async () => {
    const { client, seen } = await startedPair();
    const bigint = createNotification('n', { value: 1n });
    expect(await codeOf(client.send(bigint))).toBe(LocalErrorCode.InvalidMessage);
    await flush();
    expect(seen.server.events).toEqual([]);
  });
});
