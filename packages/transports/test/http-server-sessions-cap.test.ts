/**
 * The bound on legacy sessions (`maxSessions`): at the cap a new `initialize` evicts the
 * longest-idle session that is not busy, and is refused with 503 and `Retry-After` when every
 * session is busy.
 */
import { ErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, type LegacyHooks } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import {
  errorBody,
  initializeRequest,
  LegacyClient,
  legacyResponder,
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

describe('maxSessions', () => {
  it('evicts the longest-idle session for a new initialize; its client gets 404', async () => {
    const server = legacyResponder({ maxSessions: 2 });
    const client = await start(server.hooks);
    const first = await client.handshake();
    const second = await client.handshake();
    // Using the first session makes the second the longest idle.
    expect((await client.post(toolsList(1), { sessionId: first })).status).toBe(200);

    const third = await client.handshake();
    expect(server.closed).toEqual([second]);
    expect((await client.post(toolsList(2), { sessionId: second })).status).toBe(404);
    expect((await client.post(toolsList(3), { sessionId: first })).status).toBe(200);
    expect((await client.post(toolsList(4), { sessionId: third })).status).toBe(200);
  });

  it('never evicts a busy session: with all busy, initialize gets 503 and Retry-After', async () => {
    const server = legacyResponder({ maxSessions: 2 });
    const client = await start(server.hooks);
    const first = await client.handshake();
    const second = await client.handshake();
    // An open GET stream keeps a session busy.
    const streams = [await client.get(first), await client.get(second)];
    for (const stream of streams) expect(stream.status).toBe(200);

    const refused = await client.post(initializeRequest('2025-06-18', 7));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    const body = await errorBody(refused);
    expect(body).toMatchObject({
      id: 7,
      error: {
        code: ErrorCode.InternalError,
        data: { reason: 'too-many-sessions', maxSessions: 2 },
      },
    });
    expect(server.closed).toEqual([]);

    // A session that ends makes room again.
    expect((await client.delete(first)).status).toBe(200);
    await client.handshake();
    expect((await client.post(toolsList(1), { sessionId: second })).status).toBe(200);
    for (const stream of streams) await new SseReader(stream.body).cancel();
  });

  it('refuses an unusable maxSessions when the handler is built', () => {
    for (const maxSessions of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createHttpHandler({ legacy: { ...legacyResponder().hooks, maxSessions } }),
      ).toThrow(RangeError);
    }
  });

  it('does not bound stateless mode, which keeps no sessions', async () => {
    const server = legacyResponder({ stateless: true, maxSessions: 1 });
    const client = await start(server.hooks);
    for (let id = 0; id < 3; id += 1) {
      expect((await client.post(toolsList(id))).status).toBe(200);
    }
  });
});
