import {
  LATEST_LEGACY_VERSION,
  LEGACY_VERSIONS,
  LocalError,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { ModernServerError, startLegacySession } from '../../src/legacy/session';
import {
  connectLegacy,
  createTestServer,
  methodsOf,
  recordingHooks,
  useLegacyCleanups,
} from '../support/legacy-harness';
import { initializeResult, scriptedConnection, simpleScript } from '../support/legacy-peer';

useLegacyCleanups();

async function startScripted(
  script: Parameters<typeof scriptedConnection>[0],
  init: { version?: string; pinned?: boolean } = {},
  hooks = recordingHooks().hooks,
) {
  const { peer, connection } = await scriptedConnection(script);
  const started = startLegacySession({
    connection,
    hooks,
    serverKey: 'scripted',
    transport: 'stream',
    ...init,
  });
  return { peer, connection, started };
}

describe.each(LEGACY_VERSIONS)('handshake in %s', (version) => {
  it('negotiates the version and serves requests in it', async () => {
    const server = createTestServer();
    const { session, sent } = await connectLegacy(server, { version });
    expect(session.verdict).toEqual({
      era: 'legacy',
      protocolVersion: version,
      transport: 'stream',
      serverKey: 'test-server',
      reachedBy: 'answer',
    });
    expect(session.facts).toEqual({
      serverInfo: server.serverInfo,
      capabilities: server.operations.capabilities(),
      instructions: 'Call echo.',
    });
    expect(methodsOf(sent)).toEqual(['initialize', 'notifications/initialized']);
    expect(sent[0]).toMatchObject({
      params: {
        protocolVersion: version,
        capabilities: { sampling: {}, roots: {} },
        clientInfo: { name: 'legacy-test-client' },
      },
    });
    const tools = await session.request('tools/list', undefined);
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo']);
    expect(
      await session.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
    ).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    await session.ping();
    expect(methodsOf(sent).slice(2)).toEqual(['tools/list', 'tools/call', 'ping']);
  });
});

describe('legacy version negotiation', () => {
  it(`offers ${LATEST_LEGACY_VERSION} by default and accepts an older answer`, async () => {
    const server = createTestServer({ versions: { legacy: ['2024-11-05'] } });
    const { session, sent } = await connectLegacy(server);
    expect(sent[0]).toMatchObject({ params: { protocolVersion: LATEST_LEGACY_VERSION } });
    expect(session.verdict.protocolVersion).toBe('2024-11-05');
  });

  it('refuses another version than the pinned one and closes the connection', async () => {
    const server = createTestServer({ versions: { legacy: ['2024-11-05'] } });
    const error = await connectLegacy(server, { version: '2025-06-18', pinned: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({
      code: 'NO_MUTUAL_VERSION',
      details: { offered: '2025-06-18', answered: '2024-11-05' },
    });
  });

  it('names a modern-only server with ModernServerError and leaves the connection open', async () => {
    const { peer, connection, started } = await startScripted(
      simpleScript({
        error: {
          code: -32602,
          message: 'Unsupported protocol version',
          data: { supported: ['2026-07-28'], requested: '2025-11-25' },
        },
      }),
    );
    const error = await started.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModernServerError);
    expect((error as ModernServerError).supported).toEqual(['2026-07-28']);
    expect((error as ModernServerError).cause).toBeInstanceOf(ProtocolError);
    expect(connection.isClosed).toBe(false);
    expect(peer.messages('notifications/initialized')).toEqual([]);
  });

  it('reads data.supportedVersions too, and the rejection of a real modern-only server', async () => {
    const { started } = await startScripted(
      simpleScript({
        error: { code: -32600, message: 'no', data: { supportedVersions: ['2026-07-28'] } },
      }),
    );
    await expect(started).rejects.toBeInstanceOf(ModernServerError);
    const server = createTestServer({ versions: { legacy: [] } });
    const real = await connectLegacy(server).catch((e: unknown) => e);
    expect(real).toBeInstanceOf(ModernServerError);
    expect((real as ModernServerError).supported).toContain('2026-07-28');
  });

  it('closes and fails with NO_MUTUAL_VERSION when the server answers a version we lack', async () => {
    const { connection, peer, started } = await startScripted(
      simpleScript(initializeResult('2025-03-26')),
    );
    await expect(started).rejects.toMatchObject({
      code: 'NO_MUTUAL_VERSION',
      details: { offered: '2025-11-25', answered: '2025-03-26' },
    });
    expect(connection.isClosed).toBe(true);
    expect(peer.messages('notifications/initialized')).toEqual([]);
  });

  it('retries once with a shared legacy version the rejection names (unless pinned)', async () => {
    const script = simpleScript(undefined);
    const answer = (version: unknown) =>
      version === '2024-11-05'
        ? initializeResult('2024-11-05')
        : {
            error: {
              code: -32602,
              message: 'Unsupported protocol version',
              data: { supported: ['2024-11-05', '1999-01-01'], requested: version },
            },
          };
    const { session, peer } = await (async () => {
      const opened = await startScripted((r) =>
        r.method === 'initialize' ? answer(r.params?.protocolVersion) : script(r),
      );
      return { session: await opened.started, peer: opened.peer };
    })();
    expect(session.verdict.protocolVersion).toBe('2024-11-05');
    expect(peer.messages('initialize')).toHaveLength(2);

    const pinned = await startScripted(
      (r) => (r.method === 'initialize' ? answer(r.params?.protocolVersion) : script(r)),
      { version: '2025-06-18', pinned: true },
    );
    await expect(pinned.started).rejects.toMatchObject({ code: 'NO_MUTUAL_VERSION' });
    expect(pinned.peer.messages('initialize')).toHaveLength(1);
    expect(pinned.connection.isClosed).toBe(true);
  });

  it('keeps any other initialize error as it is, and closes', async () => {
    const { connection, started } = await startScripted(
      simpleScript({ error: { code: -32603, message: 'boom' } }),
    );
    await expect(started).rejects.toMatchObject({ code: -32603, message: 'boom' });
    expect(connection.isClosed).toBe(true);
  });

  it('fails with INVALID_RESULT on an initialize result that does not fit the revision', async () => {
    const { connection, started } = await startScripted(
      simpleScript({ result: { protocolVersion: '2025-11-25', capabilities: {} } }),
    );
    await expect(started).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    expect(connection.isClosed).toBe(true);
  });

  it('refuses to offer a version that is not legacy', async () => {
    const { connection, peer, started } = await startScripted(simpleScript(undefined), {
      version: '2026-07-28',
    });
    await expect(started).rejects.toMatchObject({ code: 'NO_MUTUAL_VERSION' });
    expect(peer.received).toEqual([]);
    expect(connection.isClosed).toBe(true);
  });

  it('closes instead of cancelling an initialize that gets no answer', async () => {
    const recorded = recordingHooks({ requestTimeoutMs: 20 });
    const { connection, peer, started } = await startScripted(
      simpleScript(undefined),
      {},
      recorded.hooks,
    );
    await expect(started).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(connection.isClosed).toBe(true);
    expect(peer.messages('notifications/cancelled')).toEqual([]);
  });
});

describe('after initialize', () => {
  it('sets the HTTP version header before initialized, then opens the event stream', async () => {
    const steps: string[] = [];
    const { peer, connection } = await scriptedConnection(
      simpleScript(initializeResult('2025-06-18')),
    );
    const send = connection.transport.send.bind(connection.transport);
    connection.transport.send = (message, options) => {
      if ('method' in message) steps.push(message.method);
      return send(message, options);
    };
    await startLegacySession({
      connection,
      hooks: recordingHooks().hooks,
      serverKey: 'http',
      transport: 'streamable-http',
      http: {
        setProtocolVersion: (v) => steps.push(`version ${v}`),
        openEventStream: async () => {
          steps.push('event stream');
        },
      },
    });
    expect(steps).toEqual([
      'initialize',
      'version 2025-06-18',
      'notifications/initialized',
      'event stream',
    ]);
    expect(peer.messages('notifications/initialized')).toHaveLength(1);
  });

  it('sends logging/setLevel when a log level is set and the server logs', async () => {
    const recorded = recordingHooks({ logLevel: 'debug' });
    const { session, sent } = await connectLegacy(createTestServer(), { recorded });
    expect(methodsOf(sent)).toEqual([
      'initialize',
      'notifications/initialized',
      'logging/setLevel',
    ]);
    expect(sent[2]).toMatchObject({ params: { level: 'debug' } });
    await session.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(recorded.notifications).toContainEqual({
      method: 'notifications/message',
      params: expect.objectContaining({ level: 'debug', data: 'echoing x' }),
    });
  });

  it('sends no logging/setLevel without a level, nor to a server without logging', async () => {
    const quiet = recordingHooks();
    const { session, sent } = await connectLegacy(createTestServer(), { recorded: quiet });
    await session.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(methodsOf(sent)).not.toContain('logging/setLevel');
    expect(quiet.notifications).toEqual([]);

    const { peer, started } = await startScripted(
      simpleScript(initializeResult('2025-11-25', { tools: {} })),
      {},
      recordingHooks({ logLevel: 'info' }).hooks,
    );
    await started;
    expect(peer.messages('logging/setLevel')).toEqual([]);
  });
});
