import { describe, expect, it } from 'vitest';
import { InMemoryCacheStore } from '../../src/cache/memory-store';
import { ResultCache } from '../../src/cache/result-cache';
import type { CacheStore } from '../../src/cache/store';

function setup(principal = 'alice') {
  const clock = { now: 1_000 };
  const now = () => clock.now;
  const store = new InMemoryCacheStore({ now });
  return { clock, store, cache: new ResultCache(store, 'srv', principal, now), now };
}

const list = (name: string, extra: Record<string, unknown> = {}) => ({
  resultType: 'complete',
  tools: [{ name, inputSchema: { type: 'object' } }],
  ttlMs: 60_000,
  cacheScope: 'private',
  ...extra,
});

describe('ResultCache', () => {
  it('returns a stored result until its ttl passes', async () => {
    const { clock, cache } = setup();
    await cache.put('tools/list', {}, list('a'));
    expect(await cache.get('tools/list', {})).toEqual(list('a'));
    clock.now += 59_999;
    expect(await cache.get('tools/list', undefined)).toEqual(list('a'));
    clock.now += 1;
    expect(await cache.get('tools/list', {})).toBeUndefined();
  });

  it('does not store ttl 0, a missing ttl or a negative one', async () => {
    const { cache, store } = setup();
    await cache.put('tools/list', {}, list('a', { ttlMs: 0 }));
    await cache.put('prompts/list', {}, { prompts: [] });
    await cache.put('resources/list', {}, { resources: [], ttlMs: -5 });
    expect(store.size).toBe(0);
  });

  it('bypasses methods that are not cacheable and input_required results', async () => {
    const { cache, store } = setup();
    await cache.put('tools/call', { name: 'x' }, { content: [], ttlMs: 1000 });
    await cache.put(
      'resources/read',
      { uri: 'f://a' },
      { resultType: 'input_required', requestState: 's', ttlMs: 1000 },
    );
    expect(store.size).toBe(0);
    expect(await cache.get('tools/call', { name: 'x' })).toBeUndefined();
  });

  it('keys do not depend on param key order or _meta', async () => {
    const { cache } = setup();
    await cache.put(
      'resources/read',
      { uri: 'f://a', extra: { b: 1, a: 2 }, _meta: { progressToken: 'p1' } },
      { contents: [], ttlMs: 1000 },
    );
    expect(
      await cache.get('resources/read', { extra: { a: 2, b: 1 }, uri: 'f://a', _meta: { x: 1 } }),
    ).toEqual({ contents: [], ttlMs: 1000 });
    expect(await cache.get('resources/read', { uri: 'f://a' })).toBeUndefined();
    expect(
      await cache.get('resources/read', { uri: 'f://b', extra: { a: 2, b: 1 } }),
    ).toBeUndefined();
  });

  it('shares public results across principals and keeps private ones apart', async () => {
    const { store, now } = setup();
    const alice = new ResultCache(store, 'srv', 'alice', now);
    const bob = new ResultCache(store, 'srv', 'bob', now);
    const otherServer = new ResultCache(store, 'srv2', 'alice', now);
    await alice.put('tools/list', {}, list('mine'));
    await alice.put('prompts/list', {}, { prompts: [], ttlMs: 500, cacheScope: 'public' });
    expect(await bob.get('tools/list', {})).toBeUndefined();
    expect(await bob.get('prompts/list', {})).toEqual({
      prompts: [],
      ttlMs: 500,
      cacheScope: 'public',
    });
    expect(await otherServer.get('prompts/list', {})).toBeUndefined();
    expect(await alice.get('tools/list', {})).toEqual(list('mine'));
  });

  it('a newer result in one scope replaces the entry of the other scope', async () => {
    const { cache } = setup();
    await cache.put('tools/list', {}, list('old'));
    await cache.put('tools/list', {}, list('new', { cacheScope: 'public' }));
    expect(await cache.get('tools/list', {})).toEqual(list('new', { cacheScope: 'public' }));
  });

  it('hands out copies, so callers cannot change the cached result', async () => {
    const { cache } = setup();
    const result = list('a');
    await cache.put('tools/list', {}, result);
    result.tools.push({ name: 'b', inputSchema: { type: 'object' } });
    const got = await cache.get('tools/list', {});
    (got?.tools as unknown[]).length = 0;
    expect(await cache.get('tools/list', {})).toEqual(list('a'));
  });

  it('invalidates per notification', async () => {
    const { cache } = setup();
    const ttl = { ttlMs: 1000, cacheScope: 'public' };
    await cache.put('tools/list', {}, list('a'));
    await cache.put('tools/list', { cursor: 'c2' }, list('b'));
    await cache.put('prompts/list', {}, { prompts: [], ...ttl });
    await cache.put('resources/list', {}, { resources: [], ...ttl });
    await cache.put('resources/templates/list', {}, { resourceTemplates: [], ...ttl });
    await cache.put('resources/read', { uri: 'f://a' }, { contents: [1], ...ttl });
    await cache.put('resources/read', { uri: 'f://b' }, { contents: [2], ttlMs: 1000 });
    await cache.put('server/discover', {}, { supportedVersions: [], capabilities: {}, ...ttl });

    await cache.invalidate('notifications/tools/list_changed', undefined);
    expect(await cache.get('tools/list', {})).toBeUndefined();
    expect(await cache.get('tools/list', { cursor: 'c2' })).toBeUndefined();
    expect(await cache.get('prompts/list', {})).toBeDefined();

    await cache.invalidate('notifications/prompts/list_changed', {});
    expect(await cache.get('prompts/list', {})).toBeUndefined();
    expect(await cache.get('resources/list', {})).toBeDefined();

    await cache.invalidate('notifications/resources/updated', { uri: 'f://b' });
    expect(await cache.get('resources/read', { uri: 'f://b' })).toBeUndefined();
    expect(await cache.get('resources/read', { uri: 'f://a' })).toBeDefined();

    await cache.invalidate('notifications/resources/list_changed', undefined);
    expect(await cache.get('resources/list', {})).toBeUndefined();
    expect(await cache.get('resources/templates/list', {})).toBeUndefined();
    expect(await cache.get('resources/read', { uri: 'f://a' })).toBeDefined();

    await cache.invalidate('notifications/message', { level: 'info' });
    expect(await cache.get('server/discover', {})).toBeDefined();

    await cache.clear();
    expect(await cache.get('server/discover', {})).toBeUndefined();
    expect(await cache.get('resources/read', { uri: 'f://a' })).toBeUndefined();
  });

  it('checks expiry itself when the store keeps stale entries', async () => {
    const entries = new Map<string, { result: Record<string, unknown>; expiresAt: number }>();
    const lazy: CacheStore = {
      get: async (key) => entries.get(key),
      set: async (key, value) => {
        entries.set(key, value);
      },
      deletePrefix: async () => {},
    };
    let now = 0;
    const cache = new ResultCache(lazy, 'srv', '', () => now);
    await cache.put('tools/list', {}, list('a', { ttlMs: 10 }));
    now = 10;
    expect(await cache.get('tools/list', {})).toBeUndefined();
  });
});
