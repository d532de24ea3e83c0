// Properties of sealed `requestState`: any state of any request opens once and as it was
// sealed; any edit of a token, any token of another request, any garbage is refused with a
// reason and never throws; what the handler put inside is never readable in the token.

import { decodeBase64Url } from '@twofold/protocol/experimental';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/mrtr/canonical-json';
import { type RequestBinding, RequestStateCodec } from '../src/mrtr/request-state';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// Each run seals and opens with WebCrypto: a hundred cases cover the shapes without dragging.
const RUNS = { numRuns: 100 };

const binding = fc.record({
  method: fc.constantFrom('tools/call', 'prompts/get', 'resources/read'),
  params: fc.dictionary(fc.string(), fc.jsonValue()),
  principal: fc.option(fc.string(), { nil: undefined }),
});
const state = fc.jsonValue();
const round = fc.integer({ min: 1, max: 8 });
const codec = () => new RequestStateCodec({ key: 'k'.repeat(32) });

/** Whether two bindings name the same request (as the digest sees them: key order aside). */
const sameRequest = (a: RequestBinding, b: RequestBinding): boolean =>
  a.method === b.method &&
  a.principal === b.principal &&
  canonicalJson(a.params ?? {}) === canonicalJson(b.params ?? {});

/** What JSON makes of a value (`-0` becomes `0`): the state as the handler gets it back. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

describe('requestState (properties)', () => {
  it('opens once, as sealed, for the request it was sealed for', async () => {
    await fc.assert(
      fc.asyncProperty(binding, state, round, async (bound, value, r) => {
        const states = codec();
        const token = await states.seal(bound, value, r);
        const opened = await states.open(token, bound);
        expect(opened).toMatchObject({ ok: true, round: r });
        if (opened.ok) expect(viaJson(opened.state)).toEqual(viaJson(value));
        expect(await states.open(token, bound)).toEqual({ ok: false, reason: 'replayed' });
      }),
      RUNS,
    );
  });

  it('refuses any edited token as forged or malformed, never throwing', async () => {
    const edit = fc.record({ at: fc.nat(), to: fc.nat({ max: BASE64URL.length - 1 }) });
    await fc.assert(
      fc.asyncProperty(binding, state, edit, async (bound, value, { at, to }) => {
        const states = codec();
        const token = await states.seal(bound, value, 1);
        const i = at % token.length;
        const replacement = BASE64URL[to] === token[i] ? BASE64URL[(to + 1) % 64] : BASE64URL[to];
        const edited = `${token.slice(0, i)}${replacement}${token.slice(i + 1)}`;
        // The last character's unused low bits may change no byte: that is no edit.
        fc.pre(decodeBase64Url(edited)?.join() !== decodeBase64Url(token)?.join());
        const opened = await states.open(edited, bound);
        expect(opened.ok).toBe(false);
        if (!opened.ok) expect(['bad-signature', 'malformed']).toContain(opened.reason);
      }),
      RUNS,
    );
  });

  it('refuses a state presented with another request, whatever differs', async () => {
    await fc.assert(
      fc.asyncProperty(binding, binding, state, async (sealedFor, presentedWith, value) => {
        fc.pre(!sameRequest(sealedFor, presentedWith));
        const states = codec();
        const token = await states.seal(sealedFor, value, 1);
        const opened = await states.open(token, presentedWith);
        expect(opened).toEqual({ ok: false, reason: 'mismatch' });
      }),
      RUNS,
    );
  });

  it('refuses any text as a state with a reason, never throwing', async () => {
    const states = codec();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.base64String()), binding, async (text, bound) => {
        const opened = await states.open(text, bound);
        expect(opened.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('never shows what the handler sealed: no state text is readable in the token', async () => {
    const secret = fc.string({ minLength: 8 }).map((text) => `secret:${text}`);
    await fc.assert(
      fc.asyncProperty(binding, secret, async (bound, text) => {
        const token = await codec().seal(bound, { text }, 1);
        const bytes = decodeBase64Url(token);
        expect(bytes).toBeDefined();
        const visible = new TextDecoder('latin1').decode(bytes);
        expect(token).not.toContain(text);
        expect(visible).not.toContain('secret:');
        expect(visible).not.toContain(bound.method);
      }),
      RUNS,
    );
  });
});
