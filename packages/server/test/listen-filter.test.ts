import type { JsonRpcNotification } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { InMemoryChangeBus } from '../src/listen/change-bus';
import { concernsResource, honouredFilter, notificationFor } from '../src/listen/filter';
import { Outbox } from '../src/listen/outbox';

const ID = 'io.modelcontextprotocol/subscriptionId';

describe('honouredFilter', () => {
  const all = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
  };

  it('keeps what the server supports and drops false flags', () => {
    const requested = {
      toolsListChanged: true,
      promptsListChanged: false,
      resourcesListChanged: true,
      resourceSubscriptions: ['file:///a'],
    };
    expect(honouredFilter(requested, all)).toEqual({
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['file:///a'],
    });
  });

  it('drops list types the server has no list for, and URIs without resources.subscribe', () => {
    const requested = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['file:///a'],
    };
    expect(honouredFilter(requested, { tools: { listChanged: true } })).toEqual({
      toolsListChanged: true,
    });
    expect(honouredFilter(requested, { resources: { listChanged: true } })).toEqual({
      resourcesListChanged: true,
    });
    expect(honouredFilter({}, all)).toEqual({});
  });
});

describe('concernsResource', () => {
  it.each([
    ['file:///a', 'file:///a', true],
    ['file:///a', 'file:///a/b.txt', true],
    ['file:///a/', 'file:///a/b.txt', true],
    ['file:///a', 'file:///ab', false],
    ['file:///a/b', 'file:///a', false],
    ['test://static', 'test://other', false],
  ])('%s vs %s → %s', (subscribed, changed, expected) => {
    expect(concernsResource(subscribed, changed)).toBe(expected);
  });
});

describe('notificationFor', () => {
  const honoured = { toolsListChanged: true, resourceSubscriptions: ['file:///a'] };

  it('tags the requested types and ignores the rest', () => {
    expect(notificationFor({ kind: 'tools' }, honoured, 7)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [ID]: 7 } },
    });
    expect(notificationFor({ kind: 'prompts' }, honoured, 7)).toBeUndefined();
    expect(notificationFor({ kind: 'resources' }, honoured, 7)).toBeUndefined();
    expect(
      notificationFor({ kind: 'resource-updated', uri: 'file:///a/x' }, honoured, 'L'),
    ).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { _meta: { [ID]: 'L' }, uri: 'file:///a/x' },
    });
    expect(
      notificationFor({ kind: 'resource-updated', uri: 'file:///b' }, honoured, 7),
    ).toBeUndefined();
  });
});

describe('InMemoryChangeBus', () => {
  it('delivers to every listener and forgets unsubscribed ones', () => {
    const bus = new InMemoryChangeBus();
    const seen: string[] = [];
    const listener = (change: { kind: string }) => seen.push(change.kind);
    const first = bus.subscribe(listener);
    const second = bus.subscribe(listener);
    expect(bus.listenerCount).toBe(2);
    bus.publish({ kind: 'tools' });
    first();
    first();
    bus.publish({ kind: 'prompts' });
    second();
    expect(bus.listenerCount).toBe(0);
    expect(seen).toEqual(['tools', 'tools', 'prompts']);
  });
});

describe('Outbox', () => {
  const note = (method: string, uri?: string): JsonRpcNotification => ({
    jsonrpc: '2.0',
    method,
    params: uri === undefined ? {} : { uri },
  });

  it('sends in order and folds a notification into an identical one still waiting', async () => {
    const sent: string[] = [];
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    const outbox = new Outbox(
      async (n) => {
        sent.push(`${n.method} ${String(n.params?.uri ?? '')}`.trim());
        if (sent.length === 1) await blocked;
      },
      () => undefined,
    );
    outbox.push(note('ack'));
    outbox.push(note('tools'));
    outbox.push(note('tools'));
    outbox.push(note('updated', 'a'));
    outbox.push(note('updated', 'b'));
    outbox.push(note('updated', 'a'));
    unblock();
    await outbox.drain();
    expect(sent).toEqual(['ack', 'tools', 'updated a', 'updated b']);
  });

  it('stops after a failed send, reports it once and settles `failed`', async () => {
    const reported: unknown[] = [];
    let calls = 0;
    const outbox = new Outbox(
      async () => {
        calls++;
        throw new Error('gone');
      },
      (error) => reported.push(error),
    );
    outbox.push(note('a'));
    outbox.push(note('b'));
    await outbox.failed;
    await outbox.drain();
    outbox.push(note('c'));
    await outbox.drain();
    expect(calls).toBe(1);
    expect(reported).toHaveLength(1);
  });
});
