import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/mrtr/canonical-json';
import { RequestStateCodec } from '../src/mrtr/request-state';

const binding = {
  method: 'tools/call',
  params: { name: 'book', arguments: { seats: 2, day: 'mon' } },
};

describe('RequestStateCodec', () => {
  it('seals and opens a state once, keeping the handler state and round', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const token = await codec.seal(binding, { step: 1, picked: ['a'] }, 1);
    expect(await codec.open(token, binding)).toEqual({
      ok: true,
      state: { step: 1, picked: ['a'] },
      round: 1,
      asked: {},
    });
  });

  it('refuses a replay of the same state', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const token = await codec.seal(binding, undefined, 1);
    expect((await codec.open(token, binding)).ok).toBe(true);
    expect(await codec.open(token, binding)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('binds the state to the method and the original arguments, not to key order', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const reordered = {
      method: 'tools/call',
      params: { arguments: { day: 'mon', seats: 2 }, name: 'book' },
    };
    expect((await codec.open(await codec.seal(binding, 1, 1), reordered)).ok).toBe(true);
    const other = {
      method: 'tools/call',
      params: { name: 'book', arguments: { seats: 3, day: 'mon' } },
    };
    expect(await codec.open(await codec.seal(binding, 1, 1), other)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    const method = { method: 'prompts/get', params: binding.params };
    expect(await codec.open(await codec.seal(binding, 1, 1), method)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a tampered state, and a state sealed with another key', async () => {
    const codec = new RequestStateCodec({ key: 'k' });
    const token = await codec.seal(binding, { admin: false }, 1);
    expect(await codec.open(tamper(token, 30), binding)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const other = new RequestStateCodec({ key: 'other' });
    expect(await other.open(token, binding)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('rejects malformed tokens without throwing', async () => {
    const codec = new RequestStateCodec();
    for (const token of ['', 'abc', 'a.b.c', 'a+b.c', '.x', 'x.']) {
      expect(await codec.open(token, binding)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('expires states after the configured time', async () => {
    let now = 1_000_000;
    const codec = new RequestStateCodec({ key: 'k', ttlMs: 5_000, now: () => now });
    const token = await codec.seal(binding, undefined, 1);
    now += 5_000;
    expect(await codec.open(token, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  it('uses a random key per process by default: two codecs do not trust each other', async () => {
    const token = await new RequestStateCodec().seal(binding, undefined, 1);
    expect(await new RequestStateCodec().open(token, binding)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });
});

/** `token` with the character at `index` replaced by another base64url character. */
function tamper(token: string, index: number): string {
  const swapped = token[index] === 'A' ? 'B' : 'A';
  return `${token.slice(0, index)}${swapped}${token.slice(index + 1)}`;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"x":0,"y":1}]},"b":1}',
    );
  });
});
