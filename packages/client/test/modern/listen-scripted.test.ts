/**
 * The modern listen against a scripted server: the ways a stream ends (final result, the
 * server's `notifications/cancelled`, a dropped connection, an error), and tag routing.
 */
import { LocalError, ProtocolError, type RequestId } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import type { ChangeNotification, ChangeStream } from '../../src/types';
import { type ScriptedPeer, scriptedPair } from '../support/modern-peer';
import { eventually, startModernSession, useModernCleanups } from '../support/modern-session';

useModernCleanups();

const SUB = 'io.modelcontextprotocol/subscriptionId';

/** A session with a listen open on a scripted peer, and the listen request's id. */
async function openListen() {
  const { peer, clientEnd } = await scriptedPair();
  const harness = await startModernSession(clientEnd);
  const stream = harness.session.listen({ toolsListChanged: true, resourcesListChanged: true });
  await eventually(() => peer.requests.length === 1);
  const listenId = peer.requests[0]?.id as RequestId;
  expect(peer.requests[0]?.method).toBe('subscriptions/listen');
  return { ...harness, peer, stream, listenId };
}

/** Every change until the stream ends; rejects with the stream's error. */
async function collect(stream: ChangeStream): Promise<ChangeNotification[]> {
  const changes: ChangeNotification[] = [];
  for await (const change of stream) changes.push(change);
  return changes;
}

async function acked(peer: ScriptedPeer, id: RequestId) {
  await peer.tagged(id, 'notifications/subscriptions/acknowledged', {
    notifications: { toolsListChanged: true, bogus: 1 },
  });
}

describe('modern listen: how streams end', () => {
  it('ends after the buffered changes when the final result arrives', async () => {
    const { peer, stream, listenId, hooks } = await openListen();
    await acked(peer, listenId);
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    await peer.tagged(listenId, 'notifications/tools/list_changed');
    await peer.tagged(listenId, 'com.example/changed', { what: 'x' });
    await peer.notify('notifications/resources/list_changed'); // untagged: hooks only
    await peer.result(listenId, { resultType: 'complete', _meta: { [SUB]: listenId } });
    expect(await collect(stream)).toEqual([
      { type: 'toolsListChanged' },
      {
        type: 'extension',
        method: 'com.example/changed',
        params: { what: 'x', _meta: { [SUB]: listenId } },
      },
    ]);
    expect(hooks.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'com.example/changed',
      'notifications/resources/list_changed',
    ]);
  });

  it('ends when the server cancels the subscription with notifications/cancelled', async () => {
    const { peer, stream, listenId, session } = await openListen();
    await acked(peer, listenId);
    await peer.tagged(listenId, 'notifications/tools/list_changed');
    await peer.notify('notifications/cancelled', { requestId: listenId, reason: 'shutting down' });
    expect(await collect(stream)).toEqual([{ type: 'toolsListChanged' }]);
    // The pending request is released; the cancel policy names it once (servers ignore it).
    await eventually(() => peer.notifications.length === 1);
    expect(peer.notifications[0]).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: listenId },
    });
    // A late change for the ended stream goes nowhere; the session still works.
    peer.script = (request) => peer.result(request.id, { resultType: 'complete', tools: [] });
    await session.request('tools/list', undefined);
  });

  it('fails with CONNECTION_CLOSED when the stream drops without a final result', async () => {
    const { peer, stream, listenId } = await openListen();
    await acked(peer, listenId);
    await peer.tagged(listenId, 'notifications/tools/list_changed');
    const changes: ChangeNotification[] = [];
    const failure = (async () => {
      for await (const change of stream) changes.push(change);
    })().catch((e: unknown) => e);
    await eventually(() => changes.length === 1);
    await peer.close();
    const error = await failure;
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('CONNECTION_CLOSED');
    expect((error as LocalError).message).toBe('listen stream ended without a final result');
    expect(changes).toEqual([{ type: 'toolsListChanged' }]);
  });

  it('fails with the server’s error when the listen is refused', async () => {
    const { peer, stream, listenId } = await openListen();
    await peer.error(listenId, -32603, 'too many subscriptions', { maxSubscriptions: 1 });
    const error = await collect(stream).catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32603);
    await expect(stream.acknowledged).rejects.toBe(error);
  });

  it('close() sends notifications/cancelled naming the listen', async () => {
    const { peer, stream, listenId } = await openListen();
    await acked(peer, listenId);
    await stream.close();
    await eventually(() => peer.notifications.length === 1);
    expect(peer.notifications[0]).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: listenId },
    });
    // A final result arriving after the close changes nothing.
    await peer.result(listenId, { resultType: 'complete', _meta: { [SUB]: listenId } });
    expect(await collect(stream)).toEqual([]);
  });

  it('closes itself (and cancels) when the reader falls too far behind', async () => {
    const { peer, clientEnd } = await scriptedPair();
    const { session } = await startModernSession(clientEnd);
    const stream = session.listen({ toolsListChanged: true }, { maxBuffered: 2 });
    await eventually(() => peer.requests.length === 1);
    const listenId = peer.requests[0]?.id as RequestId;
    await acked(peer, listenId);
    for (let i = 0; i < 3; i++) await peer.tagged(listenId, 'notifications/tools/list_changed');
    await eventually(() => peer.notifications.length === 1);
    expect(peer.notifications[0]).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: listenId },
    });
    const error = await collect(stream).catch((e) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe('LIMIT_EXCEEDED');
  });
});
