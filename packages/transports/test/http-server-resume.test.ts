/**
 * Resumability of legacy streams with an event store: the 2025-11-25 priming event, replay
 * after `Last-Event-ID` on the GET stream and on a POST stream, without duplicates.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, InMemoryEventStore } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import { LegacyClient, legacyResponder, SseReader } from './http-server-support';

let endpoint: ServedEndpoint | undefined;

/** A legacy endpoint with an in-memory event store, and a session on it. */
async function resumableSession(version = '2025-11-25') {
  const server = legacyResponder({ eventStore: new InMemoryEventStore() });
  endpoint = await serve(createHttpHandler({ legacy: server.hooks }));
  const client = new LegacyClient(endpoint.url);
  const sessionId = await client.handshake(version);
  const session = server.sessions[0];
  if (session === undefined) throw new Error('no session');
  return { server, client, sessionId, session };
}

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('resumability (event store)', () => {
  it('primes a 2025-11-25 GET stream and replays what a reconnecting client missed, once', async () => {
    const { client, sessionId, session } = await resumableSession();
    const abort = new AbortController();
    const first = new SseReader((await client.get(sessionId, {}, abort.signal)).body);
    expect(await first.untilEventId()).not.toBe('');
    expect(first.primingEvents).toBe(1);
    await session.send({ jsonrpc: '2.0', method: 'm1' });
    const m1 = await first.next();
    expect(m1?.message).toMatchObject({ method: 'm1' });
    abort.abort();
    await first.cancel();
    // Sent while no GET stream is open: queued and stored.
    await session.send({ jsonrpc: '2.0', method: 'm2' });
    await session.send({ jsonrpc: '2.0', method: 'm3' });

    const resumed = new SseReader(
      (await client.get(sessionId, { 'last-event-id': m1?.id ?? '' })).body,
    );
    expect((await resumed.next())?.message).toMatchObject({ method: 'm2' });
    expect((await resumed.next())?.message).toMatchObject({ method: 'm3' });
    await session.send({ jsonrpc: '2.0', method: 'm4' });
    // m4 comes next: the queued copies of m2 and m3 were not sent a second time.
    expect((await resumed.next())?.message).toMatchObject({ method: 'm4' });
    await resumed.cancel();
  });

  it('resumes a POST stream whose client disconnected and ends it after the response', async () => {
    const { server, client, sessionId, session } = await resumableSession();
    const abort = new AbortController();
    const callRequest = {
      jsonrpc: '2.0' as const,
      id: 3,
      method: 'tools/call',
      params: { name: 'x' },
    };
    const call = client.post(callRequest, {
      sessionId,
      version: '2025-11-25',
      signal: abort.signal,
    });
    await server.received((m) => 'id' in m && m.id === 3);
    await session.send(
      { jsonrpc: '2.0', method: 'progress', params: { n: 1 } },
      { relatedRequestId: 3 },
    );
    const reader = new SseReader((await call).body);
    const progress = await reader.next();
    expect(progress?.message).toMatchObject({ params: { n: 1 } });
    expect(reader.primingEvents).toBe(1);
    abort.abort();
    await reader.cancel();
    await server.disconnected(3);
    await session.send(
      { jsonrpc: '2.0', method: 'progress', params: { n: 2 } },
      { relatedRequestId: 3 },
    );
    await session.send({ jsonrpc: '2.0', id: 3, result: { done: true } });

    const lastEventId = progress?.id ?? '';
    const resumed = new SseReader(
      (await client.get(sessionId, { 'last-event-id': lastEventId })).body,
    );
    expect(await resumed.rest()).toEqual([
      { jsonrpc: '2.0', method: 'progress', params: { n: 2 } },
      { jsonrpc: '2.0', id: 3, result: { done: true } },
    ]);
  });

  it('replays a stream from its priming event id', async () => {
    const { client, sessionId, session } = await resumableSession();
    const abort = new AbortController();
    const first = new SseReader((await client.get(sessionId, {}, abort.signal)).body);
    const primingId = await first.untilEventId();
    abort.abort();
    await first.cancel();
    await session.send({ jsonrpc: '2.0', method: 'after-priming' });
    const resumed = new SseReader(
      (await client.get(sessionId, { 'last-event-id': primingId })).body,
    );
    expect((await resumed.next())?.message).toMatchObject({ method: 'after-priming' });
    await resumed.cancel();
  });

  it('sends no priming event to a 2025-06-18 stream', async () => {
    const { client, sessionId, session } = await resumableSession('2025-06-18');
    const response = await client.get(sessionId, { 'mcp-protocol-version': '2025-06-18' });
    const reader = new SseReader(response.body);
    await session.send({ jsonrpc: '2.0', method: 'first' });
    expect((await reader.next())?.message).toMatchObject({ method: 'first' });
    expect(reader.primingEvents).toBe(0);
    await reader.cancel();
  });
});

describe('InMemoryEventStore', () => {
  it('keeps at most maxEvents events, dropping the oldest', async () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent('s', { jsonrpc: '2.0', method: 'a' });
    const second = await store.storeEvent('s', { jsonrpc: '2.0', method: 'b' });
    await store.storeEvent('s', { jsonrpc: '2.0', method: 'c' });
    expect(store.size).toBe(2);
    expect(await store.replayEventsAfter(first, async () => undefined)).toBeUndefined();
    const replayed: unknown[] = [];
    const stream = await store.replayEventsAfter(second, async (_, message) => {
      replayed.push(message);
    });
    expect(stream).toBe('s');
    expect(replayed).toEqual([{ jsonrpc: '2.0', method: 'c' }]);
  });

  it('replays only the stream of the given event, skipping priming positions', async () => {
    const store = new InMemoryEventStore();
    const priming = await store.storePrimingEvent('a');
    await store.storeEvent('b', { jsonrpc: '2.0', method: 'other stream' });
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'mine' });
    const replayed: unknown[] = [];
    expect(await store.replayEventsAfter(priming, async (_, m) => void replayed.push(m))).toBe('a');
    expect(replayed).toEqual([{ jsonrpc: '2.0', method: 'mine' }]);
  });

  it('refuses a maxEvents below 1', () => {
    expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow(RangeError);
  });
});
