import type { JsonRpcResponse, RequestId } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { InMemoryChangeBus } from '../src/listen/change-bus';
import {
  createServer,
  errorOf,
  heapAfterGc,
  LEGACY_INIT,
  MiB,
  memoryConnection,
  messagesOf,
  modernPost,
  resultOf,
  startHttp,
  stdioConnection,
  useCleanups,
} from './support/faults-harness';
import { modernParams, type TestPeer } from './support/peer';

useCleanups();

const HEAP_BOUND = 20 * MiB;

describe('faults: no listener or memory growth', () => {
  it('2,000 sequential modern tools/call on one stdio-like connection', async () => {
    const bus = new InMemoryChangeBus();
    const { server, observed } = createServer({ listen: { bus } });
    const { peer, errors } = await stdioConnection(server);
    const call = async (i: number) => {
      const text = `${i}:${'s'.repeat(16 * 1024)}`;
      const response = await peer.request(
        'tools/call',
        modernParams({ name: 'echo', arguments: { text } }),
      );
      const content = resultOf(response).content as { text: string }[];
      if (content[0]?.text !== text) throw new Error(`wrong answer to ${i}`);
      // As on a real pipe, each exchange goes through the event loop (see heapAfterGc).
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (let i = 0; i < 100; i++) await call(i); // warm-up, outside the measure
    const listeners = observed.changeListeners();
    const busListeners = bus.listenerCount;
    const before = await heapAfterGc();
    for (let i = 0; i < 2000; i++) await call(i);
    const growth = (await heapAfterGc()) - before;
    expect(observed.changeListeners()).toBe(listeners);
    expect(bus.listenerCount).toBe(busListeners);
    expect(growth).toBeLessThan(HEAP_BOUND);
    expect(peer.answerCounts.size).toBe(2100);
    expect(errors).toEqual([]);
  }, 60_000);

  it('500 sequential modern tools/call over HTTP', async () => {
    const bus = new InMemoryChangeBus();
    const { server, observed } = createServer({ listen: { bus } });
    const { url, errors } = await startHttp(server);
    const call = async (i: number) => {
      const text = `${i}:${'h'.repeat(64 * 1024)}`;
      const response = await modernPost(
        url,
        i,
        'tools/call',
        modernParams({ name: 'echo', arguments: { text } }),
      );
      const [message] = await messagesOf(response);
      const content = (message?.result as { content?: { text: string }[] } | undefined)?.content;
      if (content?.[0]?.text !== text) throw new Error(`wrong answer to ${i}`);
    };
    for (let i = 0; i < 50; i++) await call(i);
    const listeners = observed.changeListeners();
    const busListeners = bus.listenerCount;
    const before = await heapAfterGc();
    for (let i = 0; i < 500; i++) await call(i);
    const growth = (await heapAfterGc()) - before;
    expect(observed.changeListeners()).toBe(listeners);
    expect(bus.listenerCount).toBe(busListeners);
    expect(growth).toBeLessThan(HEAP_BOUND);
    expect(errors).toEqual([]);
  }, 60_000);
});

type Kind =
  | 'valid'
  | 'invalid-arguments'
  | 'invalid-params'
  | 'no-meta'
  | 'unknown-method'
  | 'thrown'
  | 'thrown-protocol';
const KINDS: readonly Kind[] = [
  'valid',
  'invalid-arguments',
  'invalid-params',
  'no-meta',
  'unknown-method',
  'thrown',
  'thrown-protocol',
];

/** The request of `kind` (modern or legacy params), and a check of its response. */
function mixed(kind: Kind, i: number, era: 'modern' | 'legacy') {
  const params = (extra: Record<string, unknown>) =>
    era === 'modern' ? modernParams(extra) : extra;
  switch (kind) {
    case 'valid':
      return {
        method: 'tools/call',
        params: params({ name: 'echo', arguments: { text: `t${i}` } }),
        check: (r: JsonRpcResponse) =>
          expect(resultOf(r).content).toEqual([{ type: 'text', text: `t${i}` }]),
      };
    case 'invalid-arguments':
      return {
        method: 'tools/call',
        params: params({ name: 'echo', arguments: { text: i } }),
        check: (r: JsonRpcResponse) => expect(resultOf(r).isError).toBe(true),
      };
    case 'invalid-params':
      return {
        method: 'tools/call',
        params: params({ arguments: {} }),
        check: (r: JsonRpcResponse) => expect(errorOf(r).code).toBe(-32602),
      };
    case 'no-meta':
      // Modern: no `_meta` at all; legacy: a tool name that is not a string.
      return {
        method: era === 'modern' ? 'tools/list' : 'tools/call',
        params: era === 'modern' ? {} : { name: 5 },
        check: (r: JsonRpcResponse) => expect(errorOf(r).code).toBe(-32602),
      };
    case 'unknown-method':
      return {
        method: 'nothing/here',
        params: params({}),
        check: (r: JsonRpcResponse) => expect(errorOf(r).code).toBe(-32601),
      };
    case 'thrown':
      return {
        method: 'tools/call',
        params: params({ name: 'boom' }),
        check: (r: JsonRpcResponse) => expect(resultOf(r)).toMatchObject({ isError: true }),
      };
    case 'thrown-protocol':
      return {
        method: 'tools/call',
        params: params({ name: 'protocol_boom' }),
        check: (r: JsonRpcResponse) => expect(errorOf(r).code).toBe(-32602),
      };
  }
}

async function sendMixed(peer: TestPeer, era: 'modern' | 'legacy', count: number) {
  const sent = Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % KINDS.length] as Kind;
    const request = mixed(kind, i, era);
    // Numbers and strings, both valid JSON-RPC ids.
    const id: RequestId = i % 2 === 0 ? 1000 + i : `m-${i}`;
    return { id, request, answer: peer.request(request.method, request.params, id) };
  });
  const responses = await Promise.all(sent.map((s) => s.answer));
  for (const [index, { id, request }] of sent.entries()) {
    const response = responses[index] as JsonRpcResponse;
    expect(response.id).toBe(id);
    request.check(response);
  }
  return sent.map((s) => s.id);
}

describe('faults: exactly one response per request id under a concurrent mix', () => {
  it('300 modern requests at once on one stdio-like connection', async () => {
    const { server } = createServer();
    const { peer } = await stdioConnection(server);
    const ids = await sendMixed(peer, 'modern', 300);
    // One more round trip, so that a duplicate sent after the first answers would be here.
    await peer.request('server/discover', modernParams(), 'last');
    for (const id of ids) expect(peer.answerCounts.get(id)).toBe(1);
    expect(peer.answerCounts.size).toBe(301);
    expect(peer.strayResponses).toEqual([]);
  });

  it('300 legacy requests at once in a session on the in-memory pair', async () => {
    const { server } = createServer();
    const { peer } = await memoryConnection(server);
    await peer.request('initialize', LEGACY_INIT, 'init');
    await peer.notify('notifications/initialized');
    const ids = await sendMixed(peer, 'legacy', 300);
    await peer.request('ping', undefined, 'last');
    for (const id of ids) expect(peer.answerCounts.get(id)).toBe(1);
    expect(peer.answerCounts.size).toBe(302);
    expect(peer.strayResponses).toEqual([]);
  });
});
