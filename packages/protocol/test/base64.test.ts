import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from '../src/base64';

describe('base64url', () => {
  it('round-trips any bytes, without padding or standard-alphabet characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = encodeBase64Url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it('encodes the RFC 4648 alphabet ends', () => {
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(encodeBase64Url(new Uint8Array())).toBe('');
  });

  it.each(['ab+c', 'ab/c', 'YQ==', 'a', 'ab c'])('rejects %j', (text) => {
    expect(decodeBase64Url(text)).toBeUndefined();
  });
});
