/**
 * SEP-1699 polling on legacy streams: a 2025-11-25 request whose stream can be resumed gets a
 * `closeStream` in its context; closing ends the POST's SSE body after a priming event that
 * carries the endpoint's `retry:`, the request stays pending, and what follows reaches the
 * client's GET with `Last-Event-ID`. Without a store, or before 2025-11-25, there is nothing
 * to resume from and no `closeStream`.
 */
import type { MessageContext } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  type HttpMessageContext,
  InMemoryEventStore,
} from '../src/http-server/index';
import type { LegacyHooks } from '../src/http-server/types';
import { type ServedEndpoint, serve } from '../src/node';
import { LegacyClient, legacyResponder, SseReader } from './http-server-support';

let endpoint: ServedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const CALL = { jsonrpc: '2.0' as const, id: 3, method: 'tools/call', params: { name: 'x' } };

/** A session on a legacy endpoint; `contexts` has the context each request was delivered with. */
async function session(version: string, options: Partial<LegacyHooks>) {
  const responder = legacyResponder(options);
  const contexts = new Map<unknown, HttpMessageContext | undefined>();
  const hooks: LegacyHooks = {
    ...responder.hooks,
    onSession: async (legacy) => {
      await responder.hooks.onSession(legacy);
      const inner = legacy.onmessage;
      legacy.onmessage = (message, context?: MessageContext) => {
        if ('id' in message && 'method' in message) contexts.set(message.id, context);
        inner?.(message, context);
      };
    },
  };
  endpoint = await serve(createHttpHandler({ legacy: hooks }));
  const client = new LegacyClient(endpoint.url);
  const sessionId = await client.handshake(version);
  const call = client.post(CALL, { sessionId, version });
  await responder.received((m) => 'id' in m && m.id === 3);
  const legacy = responder.sessions[0];
  if (legacy === undefined) throw new Error('no session');
  return { client, sessionId, call, legacy, context: contexts.get(3) };
}

describe('closing a legacy request stream (SEP-1699)', () => {
  it('ends the POST stream after a priming event with retry:, and resumes on GET', async () => {
    const store = new InMemoryEventStore();
    const { client, sessionId, call, legacy, context } = await session('2025-11-25', {
      eventStore: store,
      retryIntervalMs: 750,
    });
    expect(context?.closeStream).toBeTypeOf('function');
    await context?.closeStream?.();
    const body = await (await call).text();
    const primingId = /^id: (.+)$/m.exec(body)?.[1];
    expect(primingId).toBeDefined();
    expect(body).toMatch(/^retry: 750$/m);
    expect(body).not.toContain('"result"');
    // The request goes on: what it sends now waits for the resuming GET.
    await legacy.send(
      { jsonrpc: '2.0', method: 'progress', params: { n: 1 } },
      { relatedRequestId: 3 },
    );
    await legacy.send({ jsonrpc: '2.0', id: 3, result: { done: true } });
    const resumed = new SseReader(
      (await client.get(sessionId, { 'last-event-id': primingId ?? '' })).body,
    );
    expect((await resumed.next())?.message).toMatchObject({ method: 'progress', params: { n: 1 } });
    expect((await resumed.next())?.message).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { done: true },
    });
    await resumed.cancel();
  });

  it('offers no closeStream without an event store, nor on 2025-06-18', async () => {
    const withoutStore = await session('2025-11-25', {});
    expect(withoutStore.context).toBeDefined();
    expect(withoutStore.context?.closeStream).toBeUndefined();
    await withoutStore.legacy.send({ jsonrpc: '2.0', id: 3, result: {} });
    await endpoint?.close();
    const older = await session('2025-06-18', { eventStore: new InMemoryEventStore() });
    expect(older.context?.closeStream).toBeUndefined();
    await older.legacy.send({ jsonrpc: '2.0', id: 3, result: {} });
  });
});
