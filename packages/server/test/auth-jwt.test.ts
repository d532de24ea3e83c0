/**
 * `jwtVerifier` against a JWKS served on a loopback port: what a good token grants, every way a
 * token is refused (always `InvalidTokenError`, never with the token in the message), key
 * rotation, unknown and revoked keys, and an unavailable key set (not the token's fault).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type JwtVerifierOptions, jwtVerifier } from '../src/auth/jwt-verifier';
import { InvalidTokenError, type TokenVerifier } from '../src/auth/types';
import {
  type Claims,
  ISSUER,
  mint,
  type SigningKey,
  serveJwks,
  signingKey,
} from './support/auth-keys';
import { createAuthTestServer, serveProtected } from './support/auth-server';
import { modernPost } from './support/http-posts';
import { modernParams } from './support/peer';

const RESOURCE = 'https://mcp.example.test/mcp';
const request = new Request(RESOURCE, { method: 'POST' });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup(keys: SigningKey[], options: Partial<JwtVerifierOptions> = {}) {
  const jwks = await serveJwks(keys);
  closers.push(() => jwks.close());
  const verify = jwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: RESOURCE, ...options });
  return { jwks, verify };
}

const good: Claims = { aud: RESOURCE, sub: 'alice' };

/** Verifies and expects a refusal whose message does not give the token away. */
async function refusal(verify: TokenVerifier, token: string): Promise<string> {
  const error = await verify(token, request).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InvalidTokenError);
  const message = (error as Error).message;
  expect(message).not.toContain(token);
  return message;
}

describe('jwtVerifier', () => {
  it('maps the claims of a good token', async () => {
    const key = await signingKey('k1');
    const { verify } = await setup([key]);
    const token = await mint(key, { ...good, scope: 'a b', client_id: 'app' });
    const auth = await verify(token, request);
    expect(auth).toMatchObject({
      subject: 'alice',
      clientId: 'app',
      scopes: ['a', 'b'],
      resource: RESOURCE,
      expiresAt: expect.any(Number),
      extra: { claims: { iss: ISSUER, sub: 'alice', aud: RESOURCE } },
    });
    expect(JSON.stringify(auth)).not.toContain(token);
    // `scp` lists and `azp` stand in when `scope` and `client_id` are absent.
    const other = await mint(key, { ...good, scp: ['x', 'y'], azp: 'web' });
    expect(await verify(other, request)).toMatchObject({ scopes: ['x', 'y'], clientId: 'web' });
  });

  it('refuses another audience, another issuer, an expired token, one without expiry', async () => {
    const key = await signingKey('k1');
    const { verify } = await setup([key]);
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(verify, await mint(key, { ...good, aud: 'https://other.test/mcp' }))).toBe(
      'The access token was issued for another resource',
    );
    expect(await refusal(verify, await mint(key, { ...good, iss: 'https://evil.test' }))).toMatch(
      /issuer/,
    );
    const expired = await mint(key, { ...good, iat: now - 7200, exp: now - 3600 });
    expect(await refusal(verify, expired)).toBe('The access token has expired');
    expect(await refusal(verify, await mint(key, { ...good, exp: undefined }))).toMatch(/expiry/);
    expect(await refusal(verify, 'not.a.jwt')).toMatch(/not a valid signed JWT/);
  });

  it('refuses a forged signature, and algorithms outside the accepted list', async () => {
    const key = await signingKey('k1');
    const forger = await signingKey('k1');
    const { verify } = await setup([key], { algorithms: ['ES256'] });
    // Same kid, another private key: the published key does not verify it.
    expect(await refusal(verify, await mint(forger, good))).toMatch(/signature/);
    const { verify: rsOnly } = await setup([key], { algorithms: ['RS256'] });
    expect(await refusal(rsOnly, await mint(key, good))).toMatch(/algorithm/);
  });

  it('follows key rotation: a token with a new kid refetches the key set', async () => {
    const old = await signingKey('old');
    const { jwks, verify } = await setup([old], { jwksCooldownMs: 0 });
    await verify(await mint(old, good), request);
    expect(jwks.fetches).toBe(1);
    const next = await signingKey('new');
    jwks.keys = [old, next];
    expect(await verify(await mint(next, good), request)).toMatchObject({ subject: 'alice' });
    expect(jwks.fetches).toBe(2);
    // Cached: no fetch for a known kid.
    await verify(await mint(old, good), request);
    expect(jwks.fetches).toBe(2);
  });

  it('refuses an unknown kid, and a revoked one once the cached set has aged', async () => {
    const kept = await signingKey('kept');
    const stranger = await signingKey('stranger');
    const { jwks, verify } = await setup([kept], { jwksCooldownMs: 0 });
    expect(await refusal(verify, await mint(stranger, good))).toMatch(
      /key this server does not know/,
    );
    expect(jwks.fetches).toBe(2);

    const revoked = await signingKey('revoked');
    const fresh = await setup([kept, revoked], { jwksCacheMaxAgeMs: 0 });
    const token = await mint(revoked, good);
    await fresh.verify(token, request);
    fresh.jwks.keys = [kept];
    expect(await refusal(fresh.verify, token)).toMatch(/key this server does not know/);
  });

  it('treats an unavailable key set as a server failure, not a bad token', async () => {
    const key = await signingKey('k1');
    const { jwks, verify } = await setup([key]);
    jwks.failWith = 503;
    const token = await mint(key, good);
    const error = await verify(token, request).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(InvalidTokenError);
    expect((error as Error).message).toBe(`The key set at ${jwks.url} could not be fetched`);
  });

  it('checks its options at once', () => {
    const base = { jwksUrl: 'https://auth.test/jwks', issuer: ISSUER, audience: RESOURCE };
    expect(() => jwtVerifier({ ...base, audience: [] })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, issuer: '' })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, clockToleranceSec: -1 })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, jwksUrl: 'not a url' })).toThrow(TypeError);
  });
});

describe('jwtVerifier behind the HTTP handler', () => {
  it('answers a refused token 401 invalid_token, and an unavailable key set 500', async () => {
    const key = await signingKey('k1');
    const jwks = await serveJwks([key]);
    closers.push(() => jwks.close());
    const errors: Error[] = [];
    const endpoint = await serveProtected(
      createAuthTestServer(),
      (resource) => ({
        // Fetched for every token, so the outage below is seen at once.
        verifyToken: jwtVerifier({
          jwksUrl: jwks.url,
          issuer: ISSUER,
          audience: resource,
          jwksCacheMaxAgeMs: 0,
        }),
        resourceMetadata: { resource, authorization_servers: [ISSUER] },
      }),
      { onerror: (error) => errors.push(error) },
    );
    closers.push(() => endpoint.close());
    const token = await mint(key, { aud: 'https://other.test/mcp', sub: 'alice' });
    const list = (bearer: string) =>
      modernPost(endpoint.url, 1, 'tools/list', modernParams(), {
        headers: { authorization: `Bearer ${bearer}` },
      });
    const refused = await list(token);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(
      `Bearer error="invalid_token", error_description="The access token was issued for another resource", resource_metadata="${endpoint.metadataUrl}"`,
    );
    const body = await refused.text();
    expect(JSON.parse(body)).toEqual({
      error: 'invalid_token',
      error_description: 'The access token was issued for another resource',
    });
    expect(challenge + body).not.toContain(token);

    jwks.failWith = 500;
    const valid = await mint(key, { aud: endpoint.resource, sub: 'alice' });
    const failed = await list(valid);
    expect(failed.status).toBe(500);
    expect(errors.map((error) => error.message)).toEqual([
      `The key set at ${jwks.url} could not be fetched`,
    ]);
    expect(await failed.text()).not.toContain(valid);
  });
});
