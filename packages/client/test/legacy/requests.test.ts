import { META_KEYS } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { startLegacySession } from '../../src/legacy/session';
import {
  connectLegacy,
  createTestServer,
  recordingHooks,
  useLegacyCleanups,
} from '../support/legacy-harness';
import { initializeResult, type Script, scriptedConnection } from '../support/legacy-peer';

useLegacyCleanups();

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

async function scriptedSession(script: Script, hooks = recordingHooks().hooks) {
  const { peer, connection } = await scriptedConnection((request) =>
    request.method === 'initialize'
      ? initializeResult('2025-11-25', { tools: {} })
      : script(request),
  );
  const session = await startLegacySession({
    connection,
    hooks,
    serverKey: 's',
    transport: 'stream',
  });
  return { peer, session };
}

describe('legacy requests', () => {
  it('checks results against the negotiated revision and passes unknown methods through', async () => {
    const { session } = await scriptedSession((request) =>
      request.method === 'tools/list'
        ? { result: { tools: [{ name: 'no-schema' }] } }
        : { result: { anything: 1 } },
    );
    await expect(session.request('tools/list', undefined)).rejects.toMatchObject({
      code: 'INVALID_RESULT',
    });
    expect(await session.request('vendor/thing', { a: 1 })).toEqual({ anything: 1 });
  });

  it('adds the call meta and trace context to _meta without touching the params', async () => {
    const hooks = recordingHooks({ trace: { traceparent: TRACEPARENT } }).hooks;
    const { session, peer } = await scriptedSession(() => ({ result: { tools: [] } }), hooks);
    const params = { cursor: 'c', _meta: { own: true } };
    await session.request('tools/list', params, { meta: { extra: 'x' } });
    expect(params).toEqual({ cursor: 'c', _meta: { own: true } });
    const [request] = peer.messages('tools/list');
    expect(request).toMatchObject({
      params: {
        cursor: 'c',
        _meta: { own: true, extra: 'x', [META_KEYS.traceparent]: TRACEPARENT },
      },
    });
    await session.request('tools/list', undefined, { trace: { traceparent: 'bad' } });
    expect(peer.messages('tools/list')[1]).not.toHaveProperty('params');
  });

  it('rejects a server error with its ProtocolError', async () => {
    const server = createTestServer();
    const { session } = await connectLegacy(server);
    await expect(session.request('prompts/get', { name: 'missing' })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(session.request('resources/read', { uri: 'test://none' })).rejects.toMatchObject({
      code: -32002,
    });
  });
});
