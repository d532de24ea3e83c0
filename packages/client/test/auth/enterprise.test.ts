/**
 * The enterprise-managed grant through the real HTTP transport: the ID token exchanged at a
 * loopback identity provider (RFC 8693, every parameter the ID-JAG profile asks for), the
 * ID-JAG redeemed at the MCP authorization server with the JWT bearer grant and the client's
 * credentials, the identity provider's token endpoint discovered when not given, and refusals
 * that stop the flow and name no token.
 */
import { decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AuthorizationError } from '../../src/auth/errors';
import { OAuthProvider } from '../../src/auth/provider';
import type { EnterpriseIdentityProvider, OAuthProviderOptions } from '../../src/auth/types';
import { useEraCleanups } from '../support/era-targets';
import { listTools } from '../support/oauth-scripted';
import {
  type ExtensionServer,
  issued,
  metadataRoutes,
  type Reply,
  type Seen,
  serveRoutes,
  toolsResult,
  unauthorized,
} from './extension-servers';

useEraCleanups();

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.aWQtdG9rZW4tc2lnbmF0dXJl';

interface Script {
  /** The identity provider's answer instead of an ID-JAG. */
  exchange?: (request: Seen) => Reply | undefined;
}

/** The MCP endpoint, its authorization server at `/as` and an identity provider at `/idp`. */
async function serveEnterprise(script: Script = {}) {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const tokens = new Set<string>();
  const server: ExtensionServer = await serveRoutes({
    ...metadataRoutes({
      grant_types_supported: [JWT_BEARER],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    }),
    // OpenID Connect discovery by appending: the last of the three URLs the client tries.
    '/idp/.well-known/openid-configuration': (_request, base) => ({
      json: {
        issuer: `${base}/idp`,
        token_endpoint: `${base}/idp/token`,
        grant_types_supported: [TOKEN_EXCHANGE],
      },
    }),
    '/idp/token': async (request, base) => {
      const scripted = script.exchange?.(request);
      if (scripted !== undefined) return scripted;
      const form = request.form;
      const idJag = await new SignJWT({ resource: form.get('resource'), client_id: 'mcp-client' })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
        .setIssuer(`${base}/idp`)
        .setAudience(form.get('audience') ?? '')
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('5m')
        .setJti(crypto.randomUUID())
        .sign(privateKey);
      return { json: { access_token: idJag, issued_token_type: ID_JAG, token_type: 'N_A' } };
    },
    '/as/token': async (request, base) => {
      const assertion = request.form.get('assertion') ?? '';
      const { payload } = await jwtVerify(assertion, publicKey, {
        audience: `${base}/as`,
        typ: 'oauth-id-jag+jwt',
      });
      const token = `ema-${payload.sub}-${tokens.size + 1}`;
      tokens.add(token);
      return issued(token);
    },
    '/mcp': (request, base) =>
      tokens.has(request.headers.authorization?.replace(/^Bearer /, '') ?? '')
        ? toolsResult(request)
        : unauthorized(base, 'Bearer', 'scope="chat:read", '),
  });
  return server;
}

function enterprise(base: string, idp: Partial<EnterpriseIdentityProvider> = {}) {
  let asked = 0;
  const options: OAuthProviderOptions = {
    grant: {
      type: 'enterprise',
      idp: { issuer: `${base}/idp`, clientId: 'idp-client', ...idp },
      idToken: async () => {
        asked++;
        return ID_TOKEN;
      },
    },
    client: { clientId: 'mcp-client', clientSecret: 'mcp-secret' },
  };
  return { options, asked: () => asked };
}

describe('enterprise-managed authorization', () => {
  it('exchanges the ID token for an ID-JAG, then redeems it as the pre-registered client', async () => {
    const server = await serveEnterprise();
    const { options, asked } = enterprise(server.base, {
      tokenEndpoint: `${server.base}/idp/token`,
    });
    expect(await listTools(server.url, new OAuthProvider(options))).toMatchObject({
      result: { tools: [] },
    });
    const [exchange] = server.at('/idp/token');
    expect(Object.fromEntries(exchange?.form ?? [])).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      subject_token: ID_TOKEN,
      subject_token_type: ID_TOKEN_TYPE,
      audience: `${server.base}/as`,
      resource: `${server.base}/mcp`,
      scope: 'chat:read',
      client_id: 'idp-client',
    });
    expect(exchange?.headers.authorization).toBeUndefined();

    const [redeem] = server.at('/as/token');
    expect(redeem?.form.get('grant_type')).toBe(JWT_BEARER);
    expect(redeem?.form.get('scope')).toBe('chat:read');
    expect(redeem?.form.get('resource')).toBe(`${server.base}/mcp`);
    expect(decodeProtectedHeader(redeem?.form.get('assertion') ?? '').typ).toBe('oauth-id-jag+jwt');
    expect(redeem?.headers.authorization).toBe(`Basic ${btoa('mcp-client:mcp-secret')}`);
    expect(server.at('/mcp').map((r) => r.headers.authorization)).toEqual([
      undefined,
      'Bearer ema-alice-1',
    ]);
    expect(asked()).toBe(1);
    // No browser step: nothing else was asked of either server.
    expect(server.seen.map((r) => r.path)).not.toContain('/as/authorize');
  });

  it("finds the identity provider's token endpoint from its metadata and authenticates there", async () => {
    const server = await serveEnterprise();
    const { options } = enterprise(server.base, { clientSecret: 'idp-secret' });
    await listTools(server.url, new OAuthProvider(options));
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toContain(
      'GET /idp/.well-known/openid-configuration',
    );
    const [exchange] = server.at('/idp/token');
    expect(exchange?.headers.authorization).toBe(`Basic ${btoa('idp-client:idp-secret')}`);
    expect(exchange?.form.has('client_id')).toBe(false);
  });

  it('a refusal by the identity provider stops there, naming neither the ID token nor a secret', async () => {
    const server = await serveEnterprise({
      exchange: (request) => ({
        status: 400,
        json: { error: 'access_denied', error_description: `policy refused ${request.text}` },
      }),
    });
    const { options } = enterprise(server.base, { clientSecret: 'idp-secret' });
    const error = await listTools(server.url, new OAuthProvider(options)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({
      step: 'token-exchange',
      details: { oauthError: 'access_denied' },
    });
    const shown = `${(error as Error).message} ${JSON.stringify((error as AuthorizationError).details)}`;
    expect(shown).not.toContain(ID_TOKEN);
    expect(shown).not.toContain('idp-secret');
    expect(server.at('/as/token')).toHaveLength(0);
  });

  it('refuses a token exchange answer that is not an ID-JAG', async () => {
    const server = await serveEnterprise({
      exchange: () => ({
        json: {
          access_token: 'plain-access-token',
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
        },
      }),
    });
    const { options } = enterprise(server.base, { tokenEndpoint: `${server.base}/idp/token` });
    const error = await listTools(server.url, new OAuthProvider(options)).catch((e: unknown) => e);
    expect(error).toMatchObject({ step: 'token-exchange' });
    expect((error as Error).message).toContain('not an ID-JAG');
    expect((error as Error).message).not.toContain('plain-access-token');
    expect(server.at('/as/token')).toHaveLength(0);
  });
});
