import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/cache/canonical-json';
import { InMemoryCacheStore } from '../../src/cache/memory-store';

const entry = (n: number, expiresAt = 1000) => ({ result: { n }, expiresAt });

describe('InMemoryCacheStore', () => {
  it('drops expired entries when read', () => {
    let now = 0;
    const store = new InMemoryCacheStore({ now: () => now });
    store.set('k', entry(1, 100));
    expect(store.get('k')).toEqual(entry(1, 100));
    now = 100;
    expect(store.get('k')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('evicts the oldest written entry past maxEntries', () => {
    const store = new InMemoryCacheStore({ maxEntries: 2, now: () => 0 });
    store.set('a', entry(1));
    store.set('b', entry(2));
    store.set('a', entry(3)); // rewriting makes it the newest
    store.set('c', entry(4));
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toEqual(entry(3));
    expect(store.get('c')).toEqual(entry(4));
  });

  it('holds 500 entries by default', () => {
    const store = new InMemoryCacheStore({ now: () => 0 });
    for (let i = 0; i <= 500; i++) store.set(`k${i}`, entry(i));
    expect(store.size).toBe(500);
    expect(store.get('k0')).toBeUndefined();
    expect(store.get('k500')).toEqual(entry(500));
  });

  it('deletes by prefix', () => {
    const store = new InMemoryCacheStore({ now: () => 0 });
    store.set('s1\u0000a', entry(1));
    store.set('s1\u0000b', entry(2));
    store.set('s2\u0000a', entry(3));
    store.deletePrefix('s1\u0000');
    expect(store.size).toBe(1);
    expect(store.get('s2\u0000a')).toEqual(entry(3));
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}',
    );
  });

  it('leaves out undefined members like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('rejects cycles', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});
