/**
 * The encrypted `requestState`: a client can neither read nor change it, it expires, opens
 * once, and the default replay guard is bounded (refusing, not forgetting, when full). Keys
 * come from configuration and work across server instances; nothing cryptographic happens
 * before the first use.
 */
import {
  createRequest,
  decodeBase64Url,
  encodeBase64Url,
  type JsonRpcResponse,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputRequired } from '../src/api';
import type { RequestStateOptions } from '../src/core/options';
import type { ReplayGuard } from '../src/core/shared-state';
import { handleModernRequest } from '../src/modern/dispatch';
import { RequestStateCodec } from '../src/mrtr/request-state';
import { McpServer } from '../src/server';
import { modernParams } from './support/peer';
import { errorOf, resultOf } from './support/responses';

const binding = { method: 'tools/call', params: { name: 'book', arguments: { seats: 2 } } };
const MARKER = 'plaintext-marker-4f1c';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The token's bytes as text: what a client that decodes the base64 can read. */
function decoded(token: string): string {
  const bytes = decodeBase64Url(token);
  if (bytes === undefined) throw new Error('not base64url');
  return new TextDecoder('latin1').decode(bytes);
}

describe('the sealed state is confidential and authenticated', () => {
  it('hides the handler state, the binding and the asked schema from the client', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const asked = {
      confirm: {
        method: 'elicitation/create' as const,
        requestedSchema: { type: 'object', properties: { [MARKER]: { type: 'boolean' } } },
      },
    };
    const token = await codec.seal(binding, { secret: MARKER }, 1, asked);
    const text = decoded(token);
    for (const visible of [MARKER, 'tools/call', '"exp"', '"s"']) {
      expect(text).not.toContain(visible);
    }
    expect(await codec.open(token, binding)).toMatchObject({
      ok: true,
      state: { secret: MARKER },
      asked,
    });
  });

  it('refuses a state with any byte changed, or cut short', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const token = await codec.seal(binding, { admin: false }, 1);
    const bytes = decodeBase64Url(token) as Uint8Array;
    for (let index = 0; index < bytes.length; index += 1) {
      const changed = Uint8Array.from(bytes);
      changed[index] = (changed[index] as number) ^ 0x01;
      const opened = await codec.open(encodeBase64Url(changed), binding);
      // The first byte names the format: changed, it is not a state of ours at all.
      expect(opened).toEqual({ ok: false, reason: index === 0 ? 'malformed' : 'bad-signature' });
    }
    const cut = encodeBase64Url(bytes.subarray(0, bytes.length - 1));
    expect(await codec.open(cut, binding)).toEqual({ ok: false, reason: 'bad-signature' });
    // None of those attempts used the state up.
    expect((await codec.open(token, binding)).ok).toBe(true);
  });

  it('expires, and opens once even when two retries race', async () => {
    let now = 1_000_000;
    const codec = new RequestStateCodec({ key: 'k', ttlMs: 1_000, now: () => now });
    const token = await codec.seal(binding, undefined, 1);
    const both = await Promise.all([codec.open(token, binding), codec.open(token, binding)]);
    expect(both.map((opened) => opened.ok).sort()).toEqual([false, true]);
    const late = await codec.seal(binding, undefined, 1);
    now += 1_000;
    expect(await codec.open(late, binding)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('the bounded replay guard', () => {
  it('refuses a claim when full without using the state up, until expiries make room', async () => {
    let now = 1_000_000;
    const codec = new RequestStateCodec({
      key: 'k',
      ttlMs: 1_000,
      maxUsedStates: 2,
      now: () => now,
    });
    const first = await codec.seal(binding, 1, 1);
    const second = await codec.seal(binding, 2, 1);
    now += 500;
    const third = await codec.seal(binding, 3, 1);
    expect((await codec.open(first, binding)).ok).toBe(true);
    expect((await codec.open(second, binding)).ok).toBe(true);
    expect(await codec.open(third, binding)).toEqual({ ok: false, reason: 'replay-guard-full' });
    // A replay is still a replay, full or not.
    expect(await codec.open(first, binding)).toEqual({ ok: false, reason: 'replayed' });
    // The first two expire and are forgotten; the third was never consumed.
    now += 600;
    expect(await codec.open(third, binding)).toMatchObject({ ok: true, state: 3 });
  });

  it('answers a retry that meets a full guard with -32603, and the same retry works later', async () => {
    const clock = { now: 1_000_000 };
    const server = createServer({ key: 'k', ttlMs: 1_000, maxUsedStates: 1, now: () => clock.now });
    const a = await firstRound(server, 'a');
    clock.now += 500;
    const b = await firstRound(server, 'b');
    expect(resultOf(await retry(server, 'a', a)).resultType).toBe('complete');
    const full = errorOf(await retry(server, 'b', b));
    expect(full).toMatchObject({ code: -32603, data: { reason: 'replay-guard-full' } });
    clock.now += 600;
    expect(resultOf(await retry(server, 'b', b)).resultType).toBe('complete');
  });

  it('rejects an unusable maxUsedStates when the server is built', () => {
    for (const maxUsedStates of [0, -1, 2.5]) {
      expect(() => createServer({ maxUsedStates })).toThrow(TypeError);
    }
  });
});

describe('keys', () => {
  it('opens a state sealed by another instance given the same key bytes', async () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const issued = await firstRound(createServer({ key }), 'a');
    expect(resultOf(await retry(createServer({ key }), 'a', issued))).toMatchObject({
      content: [{ text: 'done a' }],
    });
    const stranger = createServer({ key: key.map((byte) => byte ^ 0xff) });
    expect(errorOf(await retry(stranger, 'a', issued))).toMatchObject({
      code: -32602,
      data: { reason: 'bad-signature' },
    });
  });

  it('refuses a replay on the other instance when the replicas share a guard', async () => {
    const used = new Set<string>();
    const replayGuard: ReplayGuard = {
      claim: (nonce) => !used.has(nonce) && Boolean(used.add(nonce)),
    };
    const [one, two] = [
      createServer({ key: 'k', replayGuard }),
      createServer({ key: 'k', replayGuard }),
    ];
    const issued = await firstRound(one, 'a');
    expect(resultOf(await retry(one, 'a', issued)).resultType).toBe('complete');
    expect(errorOf(await retry(two, 'a', issued))).toMatchObject({ data: { reason: 'replayed' } });
  });

  it('makes no key and draws no random bytes before the first use', async () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const server = createServer({});
    new RequestStateCodec();
    expect(random).not.toHaveBeenCalled();
    expect(importKey).not.toHaveBeenCalled();
    await firstRound(server, 'a');
    expect(random).toHaveBeenCalled();
    expect(importKey).toHaveBeenCalledTimes(1);
  });
});

function createServer(requestState: RequestStateOptions): McpServer {
  const server = new McpServer({ name: 'sealing', version: '1.0.0', requestState });
  server.registerTool({
    name: 'ask',
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } } },
    handler: (args: { tag: string }, context) =>
      context.state === undefined
        ? new InputRequired({ go: { method: 'roots/list' } }, args.tag)
        : `done ${String(context.state)}`,
  });
  return server;
}

let nextId = 1;
function call(server: McpServer, params: Record<string, unknown>): Promise<JsonRpcResponse> {
  const capabilities = { roots: {} };
  const request = createRequest(nextId++, 'tools/call', modernParams(params, {}, capabilities));
  return handleModernRequest(server, request, {
    signal: new AbortController().signal,
    notify: async () => undefined,
  });
}

async function firstRound(server: McpServer, tag: string): Promise<string> {
  const result = resultOf(await call(server, { name: 'ask', arguments: { tag } }));
  return result.requestState as string;
}

function retry(server: McpServer, tag: string, requestState: string) {
  return call(server, {
    name: 'ask',
    arguments: { tag },
    inputResponses: { go: { roots: [] } },
    requestState,
  });
}
