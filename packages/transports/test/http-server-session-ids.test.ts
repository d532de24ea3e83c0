/**
 * `sessionIdHeader`: a proxy that routes legacy sessions by a hash of their id chooses the id of
 * a new session itself; the endpoint adopts it when it is usable and mints one otherwise.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';
import { initializeRequest, LegacyClient, legacyResponder } from './http-server-support';

const HEADER = 'x-new-session-id';
let endpoint: ServedEndpoint | undefined;

async function start(sessionIdHeader?: string): Promise<LegacyClient> {
  const { hooks } = legacyResponder();
  endpoint = await serve(createHttpHandler({ legacy: { ...hooks, sessionIdHeader } }));
  return new LegacyClient(endpoint.url);
}

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** The session id an `initialize` carrying `proposed` in the header was given. */
async function initializeWith(client: LegacyClient, proposed?: string): Promise<string | null> {
  const headers: Record<string, string> = proposed === undefined ? {} : { [HEADER]: proposed };
  const response = await client.post(initializeRequest(), { headers });
  expect(response.status).toBe(200);
  await response.json();
  return response.headers.get('mcp-session-id');
}

const toolsList = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list' };

describe('sessionIdHeader', () => {
  it('adopts the id the proxy chose, and the session answers by it', async () => {
    const client = await start(HEADER);
    const proposed = '0f5c2a9d8e7b41c3a6d2e9f08b7c6a51';
    expect(await initializeWith(client, proposed)).toBe(proposed);
    expect((await client.post(toolsList, { sessionId: proposed })).status).toBe(200);
  });

  it('mints a random id when the value is missing, malformed or taken', async () => {
    const client = await start(HEADER);
    const taken = 'an-id-of-twenty-four-chars';
    expect(await initializeWith(client, taken)).toBe(taken);
    const minted = [
      await initializeWith(client),
      await initializeWith(client, 'short'),
      await initializeWith(client, 'has spaces in it, which ids cannot'),
      await initializeWith(client, taken),
    ];
    for (const id of minted) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(minted).size).toBe(4);
  });

  it('ignores the header unless configured', async () => {
    const client = await start();
    const proposed = '0f5c2a9d8e7b41c3a6d2e9f08b7c6a51';
    const id = await initializeWith(client, proposed);
    expect(id).not.toBe(proposed);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
