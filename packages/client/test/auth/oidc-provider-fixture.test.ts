/**
 * The shared test authorization server (oidc-provider) driven by an independent OAuth client
 * library, so that client tests can rely on what it does: discovery, dynamic registration of a
 * native client with a loopback redirect URI, PKCE with a resource indicator giving a JWT access
 * token for the MCP endpoint, refresh token rotation, key rotation, revocation, introspection and
 * client credentials.
 */
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
  TEST_ACCOUNT,
} from '../../../../config/test-support/oidc-provider.ts';

const RESOURCE = 'http://127.0.0.1:45999/mcp';
const SCOPES = ['mcp:read', 'mcp:write'];
const TTL = 300;
const SERVICE = { client_id: 'service', client_secret: 'service-secret' };
// The fixture never fetches the redirect URI, so no listener is needed behind this port.
const CALLBACK = 'http://127.0.0.1:53682/callback';
/** oauth4webapi refuses http endpoints unless told otherwise: the server is on loopback http. */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let as: AuthorizationServer;
let metadata: oauth.AuthorizationServer;

beforeAll(async () => {
  as = await startAuthorizationServer({
    resource: RESOURCE,
    scopes: SCOPES,
    accessTokenTtlSec: TTL,
    clients: [
      {
        ...SERVICE,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      },
    ],
  });
  const issuer = new URL(as.issuer);
  metadata = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
});

afterEach(() => expect(as.serverErrors).toEqual([]));
afterAll(() => as?.close());

/** Registers a public client the way an MCP client does (RFC 7591, no initial access token). */
async function registerNative(
  redirectUri = 'http://127.0.0.1/callback',
  applicationType = 'native',
) {
  const response = await oauth.dynamicClientRegistrationRequest(
    metadata,
    {
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      application_type: applicationType,
      client_name: 'twofold test',
    },
    insecure,
  );
  return oauth.processDynamicClientRegistrationResponse(response) as Promise<oauth.Client>;
}

/** Runs PKCE authorization through the scripted user agent and redeems the code. */
async function authorize(
  client: oauth.Client,
  options: { scope?: string; consent?: 'grant' | 'deny'; grant?: string[] } = {},
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(String(metadata.authorization_endpoint));
  url.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: options.scope ?? 'mcp:read mcp:write offline_access',
    resource: RESOURCE,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const redirect = await as.followAuthorization(url, {
    ...(options.consent ? { consent: options.consent } : {}),
    ...(options.grant ? { scopes: options.grant } : {}),
  });
  return { redirect, state, verifier };
}

async function redeem(client: oauth.Client, flow: Awaited<ReturnType<typeof authorize>>) {
  const params = oauth.validateAuthResponse(metadata, client, flow.redirect, flow.state);
  const response = await oauth.authorizationCodeGrantRequest(
    metadata,
    client,
    oauth.None(),
    params,
    CALLBACK,
    flow.verifier,
    { additionalParameters: { resource: RESOURCE }, ...insecure },
  );
  return oauth.processAuthorizationCodeResponse(metadata, client, response);
}

async function refresh(client: oauth.Client, refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(
    metadata,
    client,
    oauth.None(),
    refreshToken,
    { additionalParameters: { resource: RESOURCE }, ...insecure },
  );
  return oauth.processRefreshTokenResponse(metadata, client, response);
}

/** Verifies against a freshly fetched JWKS, as a resource server does on an unknown kid. */
async function verify(token: string) {
  const jwks = (await (await fetch(as.jwksUrl)).json()) as { keys: JWK[] };
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: as.issuer,
    audience: RESOURCE,
    typ: 'at+jwt',
  });
  return { payload, kid: decodeProtectedHeader(token).kid, jwks };
}

async function introspect(client: oauth.Client, auth: oauth.ClientAuth, token: string) {
  const response = await oauth.introspectionRequest(metadata, client, auth, token, insecure);
  return oauth.processIntrospectionResponse(metadata, client, response);
}

describe('oidc-provider test authorization server', () => {
  it('publishes RFC 8414 and OpenID metadata with the features MCP authorization uses', async () => {
    expect(as.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metadata).toMatchObject({
      issuer: as.issuer,
      jwks_uri: as.jwksUrl,
      token_endpoint: as.tokenEndpoint,
      registration_endpoint: as.registrationEndpoint,
      revocation_endpoint: as.revocationEndpoint,
      introspection_endpoint: as.introspectionEndpoint,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining([...SCOPES, 'offline_access']),
    );
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
    const openid = await fetch(`${as.issuer}/.well-known/openid-configuration`);
    expect(await openid.json()).toEqual(metadata);
  });

  it('DCR native client, PKCE + resource: a JWT access token for the MCP endpoint', async () => {
    const client = await registerNative();
    const flow = await authorize(client);
    expect(flow.redirect.origin + flow.redirect.pathname).toBe(CALLBACK);
    expect(flow.redirect.searchParams.get('iss')).toBe(as.issuer);
    expect(flow.redirect.searchParams.get('state')).toBe(flow.state);
    const tokens = await redeem(client, flow);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: TTL });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const { payload, kid } = await verify(tokens.access_token);
    expect(kid).toBe(as.currentKid);
    expect(payload).toMatchObject({
      iss: as.issuer,
      aud: RESOURCE,
      sub: TEST_ACCOUNT,
      client_id: client.client_id,
      scope: 'mcp:read mcp:write',
    });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(TTL);
    expect(await as.verifyAccessToken(tokens.access_token)).toEqual(payload);
  });

  it('rotates refresh tokens; a used one is refused and takes its grant with it', async () => {
    const client = await registerNative();
    const first = await redeem(client, await authorize(client));
    const second = await refresh(client, String(first.refresh_token));
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await verify(second.access_token)).payload.aud).toBe(RESOURCE);
    await expect(refresh(client, String(first.refresh_token))).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(refresh(client, String(second.refresh_token))).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('rotateKeys: the new kid comes first in the JWKS and signs later tokens', async () => {
    const client = await registerNative();
    const before = await redeem(client, await authorize(client));
    const oldKid = (await verify(before.access_token)).kid;
    const newKid = await as.rotateKeys();
    expect(newKid).not.toBe(oldKid);
    const after = await refresh(client, String(before.refresh_token));
    const verified = await verify(after.access_token);
    expect(verified.kid).toBe(newKid);
    expect(verified.jwks.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    // Tokens signed before the rotation still verify: the old key stays published.
    expect((await verify(before.access_token)).kid).toBe(oldKid);
  });

  it('revocation endpoint and as.revoke(): introspection then says inactive', async () => {
    const client = await registerNative();
    const one = await redeem(client, await authorize(client));
    const rt = String(one.refresh_token);
    expect(await introspect(client, oauth.None(), rt)).toMatchObject({
      active: true,
      client_id: client.client_id,
      sub: TEST_ACCOUNT,
    });
    const revoked = await oauth.revocationRequest(metadata, client, oauth.None(), rt, insecure);
    await oauth.processRevocationResponse(revoked);
    expect(await introspect(client, oauth.None(), rt)).toMatchObject({ active: false });

    const two = await redeem(client, await authorize(client));
    expect(await as.revoke(String(two.refresh_token))).toBe(true);
    expect(await introspect(client, oauth.None(), String(two.refresh_token))).toEqual({
      active: false,
    });
    await expect(refresh(client, String(two.refresh_token))).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await as.revoke('no-such-token')).toBe(false);
  });

  it('consent: deny is an access_denied redirect with iss; a partial grant narrows scope', async () => {
    const client = await registerNative();
    const denied = await authorize(client, { consent: 'deny' });
    expect(Object.fromEntries(denied.redirect.searchParams)).toMatchObject({
      error: 'access_denied',
      state: denied.state,
      iss: as.issuer,
    });
    expect(() =>
      oauth.validateAuthResponse(metadata, client, denied.redirect, denied.state),
    ).toThrow(oauth.AuthorizationResponseError);

    const narrow = await redeem(client, await authorize(client, { grant: ['mcp:read'] }));
    expect(narrow.scope).toContain('mcp:read');
    expect(narrow.scope).not.toContain('mcp:write');
    expect((await verify(narrow.access_token)).payload.scope).toBe('mcp:read');
  });

  it('loopback redirect URIs: any port for native clients, the exact URI for web ones', async () => {
    const native = await registerNative('http://127.0.0.1/callback');
    expect((await authorize(native)).redirect.port).toBe('53682');
    const web = await registerNative('http://127.0.0.1:1/callback', 'web');
    await expect(authorize(web)).rejects.toThrow(/redirect_uri did not match/);
    const localhost = await registerNative('http://localhost/callback');
    await expect(authorize(localhost)).rejects.toThrow(/redirect_uri did not match/);
  });

  it('refuses authorization without PKCE S256, or without any scope', async () => {
    const client = await registerNative();
    const base = new URL(String(metadata.authorization_endpoint));
    base.search = new URLSearchParams({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'mcp:read',
      resource: RESOURCE,
      state: 'st',
    }).toString();
    const errorOf = async (url: URL) => (await as.followAuthorization(url)).searchParams;
    expect((await errorOf(base)).get('error_description')).toMatch(/requires PKCE/);
    const plain = new URL(base);
    plain.searchParams.set('code_challenge', 'x'.repeat(43));
    plain.searchParams.set('code_challenge_method', 'plain');
    expect((await errorOf(plain)).get('error')).toBe('invalid_request');
    // oidc-provider denies a request that ends with nothing granted.
    const flow = await authorize(client, { scope: '' });
    expect(flow.redirect.searchParams.get('error')).toBe('access_denied');
  });

  it('without a resource indicator the access token is opaque, for no audience', async () => {
    const client = await registerNative();
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(String(metadata.authorization_endpoint));
    url.search = new URLSearchParams({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'mcp:read',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const redirect = await as.followAuthorization(url);
    const params = oauth.validateAuthResponse(metadata, client, redirect, oauth.expectNoState);
    const response = await oauth.authorizationCodeGrantRequest(
      metadata,
      client,
      oauth.None(),
      params,
      CALLBACK,
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(metadata, client, response);
    expect(tokens.access_token.split('.')).toHaveLength(1);
    await expect(as.verifyAccessToken(tokens.access_token)).rejects.toThrow();
  });

  it('client credentials for a confidential pre-registered client', async () => {
    const client: oauth.Client = { client_id: SERVICE.client_id };
    const response = await oauth.clientCredentialsGrantRequest(
      metadata,
      client,
      oauth.ClientSecretBasic(SERVICE.client_secret),
      { resource: RESOURCE, scope: 'mcp:read' },
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(metadata, client, response);
    expect(tokens.refresh_token).toBeUndefined();
    const { payload } = await verify(tokens.access_token);
    expect(payload).toMatchObject({ aud: RESOURCE, sub: SERVICE.client_id, scope: 'mcp:read' });
  });

  it('refuses a resource it does not protect, until setResource names it', async () => {
    const client: oauth.Client = { client_id: SERVICE.client_id };
    const other = 'http://127.0.0.1:45998/mcp';
    const request = () =>
      oauth.clientCredentialsGrantRequest(
        metadata,
        client,
        oauth.ClientSecretBasic(SERVICE.client_secret),
        { resource: other, scope: 'mcp:read' },
        insecure,
      );
    await expect(
      oauth.processClientCredentialsResponse(metadata, client, await request()),
    ).rejects.toMatchObject({ error: 'invalid_target' });
    as.setResource(RESOURCE, other);
    const tokens = await oauth.processClientCredentialsResponse(metadata, client, await request());
    expect(await as.verifyAccessToken(tokens.access_token, other)).toMatchObject({ aud: other });
    as.setResource(RESOURCE);
  });
});
