/**
 * The modern session against a scripted server: -32022 renegotiation (one retry, the version
 * learned, no mutual version), result validation, old servers without `resultType`, server
 * requests refused, notifications forwarded.
 */
import {
  ErrorCode,
  LATEST_VERSION,
  LocalError,
  META_KEYS,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { SERVER_INFO, scriptedPair } from '../support/modern-peer';
import { eventually, startModernSession, useModernCleanups } from '../support/modern-session';

useModernCleanups();

const FUTURE = '2099-01-01';
const versionOf = (params: Record<string, unknown> | undefined) =>
  (params?._meta as Record<string, unknown> | undefined)?.[META_KEYS.protocolVersion];

function unsupported(requested: string, supported: string[]) {
  return [
    ErrorCode.UnsupportedProtocolVersion,
    'Unsupported protocol version',
    { supported, requested },
  ] as const;
}

describe('modern session: version renegotiation', () => {
  it('retries once with a mutual version and keeps it for later requests', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) => {
      const version = versionOf(request.params);
      if (version !== LATEST_VERSION)
        return peer.error(
          request.id,
          ...unsupported(String(version), ['2030-01-01', LATEST_VERSION]),
        );
      return peer.result(request.id, { resultType: 'complete', tools: [] });
    };
    const { session } = await startModernSession(clientEnd, { verdictVersion: FUTURE });
    expect(await session.request('tools/list', undefined)).toEqual({
      resultType: 'complete',
      tools: [],
    });
    expect(peer.requests.map((r) => versionOf(r.params))).toEqual([FUTURE, LATEST_VERSION]);
    expect(peer.requests[0]?.id).not.toBe(peer.requests[1]?.id);
    expect(session.verdict.protocolVersion).toBe(LATEST_VERSION);
    await session.request('tools/list', undefined);
    expect(peer.requests.map((r) => versionOf(r.params))).toEqual([
      FUTURE,
      LATEST_VERSION,
      LATEST_VERSION,
    ]);
  });

  it('gives up after one retry: a second -32022 reaches the caller', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) =>
      peer.error(request.id, ...unsupported(String(versionOf(request.params)), [LATEST_VERSION]));
    const { session } = await startModernSession(clientEnd);
    const error = await session.request('tools/list', undefined).catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(peer.requests).toHaveLength(2);
  });

  it('fails with NO_MUTUAL_VERSION when the server offers none of ours', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) =>
      peer.error(request.id, ...unsupported(LATEST_VERSION, ['2025-11-25', '2030-01-01']));
    const { session } = await startModernSession(clientEnd);
    const error = await session.request('tools/list', undefined).catch((e) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe('NO_MUTUAL_VERSION');
    expect(error.cause).toBeInstanceOf(ProtocolError);
    expect(error.details).toEqual({
      supported: ['2025-11-25', '2030-01-01'],
      requested: LATEST_VERSION,
    });
    expect(peer.requests).toHaveLength(1);
    expect(session.verdict.protocolVersion).toBe(LATEST_VERSION);
  });
});

describe('modern session: results', () => {
  it('rejects results that do not fit the revision with INVALID_RESULT', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) =>
      request.method === 'tools/list'
        ? peer.result(request.id, { resultType: 'complete', tools: 'none' })
        : peer.result(request.id, { resultType: 'input_required', requestState: 's' });
    const { session } = await startModernSession(clientEnd);
    const invalid = await session.request('tools/list', undefined).catch((e) => e);
    expect(invalid).toBeInstanceOf(LocalError);
    expect(invalid.code).toBe('INVALID_RESULT');
    // input_required is allowed on tools/call, prompts/get and resources/read only.
    const interim = await session.request('prompts/list', undefined).catch((e) => e);
    expect(interim).toBeInstanceOf(LocalError);
    expect(interim.code).toBe('INVALID_RESULT');
  });

  it('reads a result without resultType as complete', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) =>
      peer.result(request.id, { content: [{ type: 'text', text: 'old' }] });
    const { session } = await startModernSession(clientEnd);
    expect(await session.request('tools/call', { name: 'x' })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'old' }],
    });
  });

  it('passes results of methods the revision does not know through as they are', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) => peer.result(request.id, { anything: [1, 2] });
    const { session } = await startModernSession(clientEnd);
    expect(await session.request('com.example/custom', { a: 1 })).toEqual({ anything: [1, 2] });
    expect(peer.requests[0]?.params).toMatchObject({ a: 1, _meta: expect.any(Object) });
  });

  it('pings with server/discover and checks the answer', async () => {
    const { peer, clientEnd } = await scriptedPair();
    peer.script = (request) => peer.result(request.id, { resultType: 'complete' });
    const { session } = await startModernSession(clientEnd);
    const error = await session.ping().catch((e) => e);
    expect(peer.requests.map((r) => r.method)).toEqual(['server/discover']);
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe('INVALID_RESULT');
  });
});

describe('modern session: what the server sends', () => {
  it('answers server requests -32601 and forwards untagged notifications', async () => {
    const { peer, clientEnd } = await scriptedPair();
    const { session, hooks } = await startModernSession(clientEnd);
    expect(session.facts).toEqual({
      serverInfo: SERVER_INFO,
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
      instructions: 'be brief',
    });
    await peer.request('srv-1', 'elicitation/create', { message: 'hi' });
    await peer.notify('notifications/tools/list_changed');
    await peer.notify('com.example/news', { n: 1 });
    await eventually(() => peer.responses.length === 1 && hooks.notifications.length === 2);
    expect(peer.responses[0]).toMatchObject({ id: 'srv-1', error: { code: -32601 } });
    expect(hooks.notifications).toEqual([
      { method: 'notifications/tools/list_changed', params: undefined },
      { method: 'com.example/news', params: { n: 1 } },
    ]);
  });

  it('reports a dropped connection to the hooks once', async () => {
    const { peer, clientEnd } = await scriptedPair();
    const { hooks } = await startModernSession(clientEnd);
    await peer.close();
    await eventually(() => hooks.closes.length === 1);
    expect(hooks.closes[0]).toBeInstanceOf(LocalError);
    expect((hooks.closes[0] as LocalError).code).toBe('CONNECTION_CLOSED');
  });
});
