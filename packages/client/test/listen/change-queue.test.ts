import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it, vi } from 'vitest';
import { ChangeQueue, changeFromNotification } from '../../src/listen/change-queue';
import type { ChangeNotification } from '../../src/types';

const tools: ChangeNotification = { type: 'toolsListChanged' };
const updated = (uri: string): ChangeNotification => ({ type: 'resourceUpdated', uri });

function queue(maxBuffered = 10) {
  const onClose = vi.fn();
  return { q: new ChangeQueue({ maxBuffered, onClose }), onClose };
}

async function drain(q: ChangeQueue): Promise<ChangeNotification[]> {
  const seen: ChangeNotification[] = [];
  for await (const change of q) seen.push(change);
  return seen;
}

describe('ChangeQueue', () => {
  it('delivers buffered changes in order, then ends after end()', async () => {
    const { q, onClose } = queue();
    q.push(tools);
    q.push(updated('a://1'));
    q.end();
    q.push(updated('a://late'));
    expect(await drain(q)).toEqual([tools, updated('a://1')]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('hands a change to a reader that is already waiting', async () => {
    const { q } = queue(0);
    const it = q[Symbol.asyncIterator]();
    const next = it.next();
    q.push(tools);
    expect(await next).toEqual({ value: tools, done: false });
    const last = it.next();
    q.end();
    expect(await last).toEqual({ value: undefined, done: true });
  });

  it('throws the failure after the buffered changes, once', async () => {
    const { q } = queue();
    const error = new Error('dropped');
    q.push(tools);
    q.fail(error);
    const it = q[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: tools, done: false });
    await expect(it.next()).rejects.toBe(error);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects waiting readers when it fails', async () => {
    const { q } = queue();
    const it = q[Symbol.asyncIterator]();
    const pending = it.next();
    const error = new Error('gone');
    q.fail(error);
    await expect(pending).rejects.toBe(error);
  });

  it('acknowledged resolves with the first filter only', async () => {
    const { q } = queue();
    q.acknowledge({ toolsListChanged: true });
    q.acknowledge({ promptsListChanged: true });
    expect(await q.acknowledged).toEqual({ toolsListChanged: true });
    q.fail(new Error('later'));
    expect(await q.acknowledged).toEqual({ toolsListChanged: true });
  });

  it('acknowledged rejects on failure before the ack, without an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { q } = queue();
      const error = new Error('no ack');
      q.fail(error);
      const { q: closed } = queue();
      await closed.close();
      const { q: ended } = queue();
      ended.end();
      // Give the runtime a chance to report unhandled rejections.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(q.acknowledged).rejects.toBe(error);
      await expect(closed.acknowledged).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
      await expect(ended.acknowledged).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('close() ends iteration, drops unread changes and calls onClose once', async () => {
    const { q, onClose } = queue();
    q.push(tools);
    const it = q[Symbol.asyncIterator]();
    await q.close();
    await q.close();
    expect(await it.next()).toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('close() resolves a waiting reader with done', async () => {
    const { q } = queue();
    const pending = q[Symbol.asyncIterator]().next();
    await q.close();
    expect(await pending).toEqual({ value: undefined, done: true });
  });

  it('break in for-await closes the stream and calls onClose once', async () => {
    const { q, onClose } = queue();
    q.push(tools);
    q.push(updated('a://1'));
    for await (const change of q) {
      expect(change).toEqual(tools);
      break;
    }
    expect(onClose).toHaveBeenCalledTimes(1);
    await q.close();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(await drain(q)).toEqual([]);
  });

  it('waits for an async onClose', async () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const q = new ChangeQueue({
      maxBuffered: 1,
      onClose: async () => {
        await done;
        finished = true;
      },
    });
    const closing = q.close();
    release();
    await closing;
    expect(finished).toBe(true);
  });

  it('close() resolves even when onClose fails', async () => {
    const q = new ChangeQueue({
      maxBuffered: 1,
      onClose: async () => {
        throw new Error('unsubscribe failed');
      },
    });
    await expect(q.close()).resolves.toBeUndefined();
    for await (const _change of q) expect.unreachable();
  });

  it('fails with LIMIT_EXCEEDED past maxBuffered unread and tears the subscription down', async () => {
    const { q, onClose } = queue(2);
    q.push(tools);
    q.push(updated('a://1'));
    q.push(updated('a://2'));
    expect(onClose).toHaveBeenCalledTimes(1);
    const it = q[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual(tools);
    expect((await it.next()).value).toEqual(updated('a://1'));
    const error = await it.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { maxBuffered: 2 } });
    await q.close();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('changeFromNotification', () => {
  it.each([
    ['notifications/tools/list_changed', undefined, { type: 'toolsListChanged' }],
    ['notifications/prompts/list_changed', {}, { type: 'promptsListChanged' }],
    ['notifications/resources/list_changed', undefined, { type: 'resourcesListChanged' }],
    [
      'notifications/resources/updated',
      { uri: 'f://x' },
      { type: 'resourceUpdated', uri: 'f://x' },
    ],
    ['notifications/resources/updated', {}, undefined],
    ['notifications/progress', { progress: 1 }, undefined],
    ['notifications/message', { level: 'info' }, undefined],
    ['notifications/subscriptions/acknowledged', {}, undefined],
    ['notifications/cancelled', { requestId: 1 }, undefined],
    [
      'notifications/x.example/ping',
      { a: 1 },
      { type: 'extension', method: 'notifications/x.example/ping', params: { a: 1 } },
    ],
    ['com.example/thing', undefined, { type: 'extension', method: 'com.example/thing' }],
    ['constructor', undefined, { type: 'extension', method: 'constructor' }],
  ] as const)('%s %j', (method, params, expected) => {
    expect(changeFromNotification(method, params as Record<string, unknown> | undefined)).toEqual(
      expected,
    );
  });
});
