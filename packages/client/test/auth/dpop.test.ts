/**
 * DPoP (RFC 9449) through the real HTTP transport against a loopback authorization server and
 * MCP endpoint that verify every proof with jose, as a resource server does: the token bound to
 * the proof key (`cnf.jkt` kept by the server), `ath`, `htm`, `htu`, a fresh `jti`, and the
 * nonces both servers may demand. Also the choice of algorithm, the key kept in the store, and
 * the code flow's `dpop_jkt`.
 */
import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { DpopBinding, dpopAlgorithm, restoreDpopKey } from '../../src/auth/dpop';
import { InMemoryTokenStore } from '../../src/auth/memory-store';
import { OAuthProvider } from '../../src/auth/provider';
import type { OAuthProviderOptions } from '../../src/auth/types';
import { useEraCleanups } from '../support/era-targets';
import { listTools, scriptedBrowser } from '../support/oauth-scripted';
import {
  type ExtensionServer,
  metadataRoutes,
  type Reply,
  type Route,
  type Seen,
  serveRoutes,
  toolsResult,
  unauthorized,
} from './extension-servers';

useEraCleanups();

const AS_NONCE = 'as-nonce-1';
const RS_NONCE = 'rs-nonce-1';

/** A proof as a server checked it. */
interface Proof {
  alg: string;
  jwk: JWK;
  jkt: string;
  claims: JWTPayload;
}

/** RFC 9449 §4.3 checks of a proof for `method` `url`, bound to `accessToken` when given. */
async function verifyProof(
  request: Seen,
  url: string,
  accessToken?: string,
): Promise<Proof | string> {
  const proof = request.headers.dpop;
  if (typeof proof !== 'string') return 'no DPoP proof';
  const header = decodeProtectedHeader(proof);
  const jwk = header.jwk as JWK | undefined;
  if (header.typ !== 'dpop+jwt' || jwk === undefined || header.alg === undefined)
    return 'bad header';
  if ('d' in jwk) return 'private key in the proof';
  const { payload } = await jwtVerify(proof, await importJWK(jwk, header.alg), {
    typ: 'dpop+jwt',
    maxTokenAge: 300,
  });
  if (payload.htm !== request.method || payload.htu !== url) return 'wrong htm or htu';
  if (typeof payload.jti !== 'string') return 'no jti';
  if (accessToken !== undefined) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
    if (payload.ath !== base64url.encode(new Uint8Array(digest))) return 'wrong ath';
  }
  return { alg: header.alg, jwk, jkt: await calculateJwkThumbprint(jwk), claims: payload };
}

interface DpopScript {
  /** `dpop_signing_alg_values_supported`; absent: DPoP not advertised. */
  algs?: string[];
  asNonce?: boolean;
  rsNonce?: boolean;
  /** The MCP endpoint hands out a new nonce with every successful answer. */
  rotate?: boolean;
  /** The token response, by grant type. */
  token?: (form: URLSearchParams) => Record<string, unknown>;
}

interface DpopServer extends ExtensionServer {
  tokenProofs: Proof[];
  mcpProofs: Proof[];
  /** The thumbprint each DPoP-bound token was issued for. */
  bound: Map<string, string>;
}

async function serveDpop(
  script: DpopScript,
  extra: (base: string) => Record<string, unknown> = () => ({}),
  routes: Record<string, Route> = {},
) {
  const tokenProofs: Proof[] = [];
  const mcpProofs: Proof[] = [];
  const bound = new Map<string, string>();
  const bearer = new Set<string>();
  let rsNonce = RS_NONCE;
  let issuedCount = 0;
  const server = await serveRoutes({
    ...metadataRoutes((base) => ({
      grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
      ...(script.algs === undefined ? {} : { dpop_signing_alg_values_supported: script.algs }),
      ...extra(base),
    })),
    ...routes,
    '/as/token': async (request, base): Promise<Reply> => {
      const response = script.token?.(request.form) ?? {};
      const token = `at-${++issuedCount}`;
      if (request.headers.dpop === undefined) {
        bearer.add(token);
        return {
          json: { access_token: token, token_type: 'Bearer', expires_in: 3600, ...response },
        };
      }
      const proof = await verifyProof(request, `${base}/as/token`);
      if (typeof proof === 'string') return { status: 400, json: { error: 'invalid_dpop_proof' } };
      tokenProofs.push(proof);
      if (script.asNonce && proof.claims.nonce !== AS_NONCE) {
        issuedCount--;
        return {
          status: 400,
          headers: { 'dpop-nonce': AS_NONCE },
          json: { error: 'use_dpop_nonce', error_description: 'a nonce, please' },
        };
      }
      bound.set(token, proof.jkt);
      return { json: { access_token: token, token_type: 'DPoP', expires_in: 3600, ...response } };
    },
    '/mcp': async (request, base): Promise<Reply> => {
      const [scheme, token = ''] = (request.headers.authorization ?? '').split(' ');
      if (scheme === 'Bearer' && bearer.has(token)) return toolsResult(request);
      if (scheme !== 'DPoP' || !bound.has(token)) return unauthorized(base, 'DPoP');
      const proof = await verifyProof(request, `${base}/mcp`, token);
      if (typeof proof === 'string' || proof.jkt !== bound.get(token))
        return unauthorized(base, 'DPoP', 'error="invalid_dpop_proof", ');
      mcpProofs.push(proof);
      if (script.rsNonce && proof.claims.nonce !== rsNonce) {
        return {
          ...unauthorized(base, 'DPoP', 'error="use_dpop_nonce", '),
          headers: {
            'www-authenticate': 'DPoP error="use_dpop_nonce"',
            'dpop-nonce': rsNonce,
          },
        };
      }
      const answer = toolsResult(request);
      if (!script.rotate) return answer;
      rsNonce = `rs-nonce-${mcpProofs.length + 1}`;
      return { ...answer, headers: { 'dpop-nonce': rsNonce } };
    },
  });
  return { ...server, tokenProofs, mcpProofs, bound } satisfies DpopServer;
}

const machine = (options: Partial<OAuthProviderOptions> = {}): OAuthProviderOptions => ({
  grant: { type: 'client_credentials' },
  client: { clientId: 'svc', clientSecret: 'svc-secret' },
  dpop: true,
  ...options,
});

const authorizations = (server: ExtensionServer) =>
  server.at('/mcp').map((request) => request.headers.authorization?.split(' ')[0]);

describe('DPoP', () => {
  it('binds the token to an ES256 key, proves it at both servers and answers both nonce challenges', async () => {
    const server = await serveDpop({ algs: ['RS256', 'ES256'], asNonce: true, rsNonce: true });
    const auth = new OAuthProvider(machine());
    // A query on the endpoint stays out of the proof's htu.
    const endpoint = new URL('/mcp?tenant=a', server.base);
    expect(await listTools(endpoint, auth)).toMatchObject({ result: { tools: [] } });
    expect(await listTools(endpoint, auth, 2)).toMatchObject({ id: 2 });

    // Token endpoint: challenged for a nonce once, then the same key with the nonce.
    expect(server.tokenProofs.map((proof) => proof.claims.nonce)).toEqual([undefined, AS_NONCE]);
    expect(new Set(server.tokenProofs.map((proof) => proof.jkt)).size).toBe(1);
    expect(server.tokenProofs[0]?.alg).toBe('ES256');
    expect(server.tokenProofs[0]?.claims.ath).toBeUndefined();

    // MCP endpoint: the DPoP scheme, a nonce challenge answered without a new token, then the
    // nonce from the start.
    expect(authorizations(server)).toEqual([undefined, 'DPoP', 'DPoP', 'DPoP']);
    expect(server.mcpProofs.map((proof) => proof.claims.nonce)).toEqual([
      undefined,
      RS_NONCE,
      RS_NONCE,
    ]);
    expect(server.at('/as/token')).toHaveLength(2);
    expect(server.mcpProofs.every((proof) => proof.jkt === server.tokenProofs[0]?.jkt)).toBe(true);
    const jtis = [...server.tokenProofs, ...server.mcpProofs].map((proof) => proof.claims.jti);
    expect(new Set(jtis).size).toBe(jtis.length);
  });

  it('keeps the key beside the bound token: another provider on the store presents it as it is', async () => {
    const server = await serveDpop({ algs: ['ES256'] });
    const store = new InMemoryTokenStore();
    await listTools(server.url, new OAuthProvider(machine({ store })));
    const record = await store.get({ issuer: `${server.base}/as`, resource: `${server.base}/mcp` });
    expect(record?.tokens?.tokenType).toBe('dpop');
    expect(record?.dpopKey?.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(record?.dpopKey?.publicJwk).not.toHaveProperty('d');
    expect(record?.dpopKey?.privateJwk).toHaveProperty('d');

    await listTools(server.url, new OAuthProvider(machine({ store })), 2);
    expect(server.at('/as/token')).toHaveLength(1);
    const [first, second] = server.mcpProofs;
    expect(second?.jkt).toBe(first?.jkt);
    expect(second?.claims.jti).not.toBe(first?.claims.jti);
  });

  it('a nonce that comes with a successful answer goes into the next proof', async () => {
    const server = await serveDpop({ algs: ['ES256'], rsNonce: true, rotate: true });
    const auth = new OAuthProvider(machine());
    await listTools(server.url, auth);
    await listTools(server.url, auth, 2);
    // One nonce challenge at the start; after it each answer's nonce is used unasked.
    expect(authorizations(server)).toEqual([undefined, 'DPoP', 'DPoP', 'DPoP']);
    expect(server.mcpProofs.map((proof) => proof.claims.nonce)).toEqual([
      undefined,
      RS_NONCE,
      'rs-nonce-3',
    ]);
  });

  it('signs with another asymmetric algorithm the server lists when ES256 is not one', async () => {
    const server = await serveDpop({ algs: ['HS256', 'RS256'] });
    await listTools(server.url, new OAuthProvider(machine()));
    expect(server.tokenProofs.map((proof) => proof.alg)).toEqual(['RS256']);
    expect(server.mcpProofs.map((proof) => proof.alg)).toEqual(['RS256']);
  });

  for (const algs of [undefined, ['none', 'HS256']]) {
    it(`stays with Bearer tokens when the server lists ${algs ? algs.join(', ') : 'no DPoP algorithm'}`, async () => {
      const server = await serveDpop(algs === undefined ? {} : { algs });
      await listTools(server.url, new OAuthProvider(machine()));
      expect(server.at('/as/token')[0]?.headers.dpop).toBeUndefined();
      expect(authorizations(server)).toEqual([undefined, 'Bearer']);
      expect(server.at('/mcp')[1]?.headers.dpop).toBeUndefined();
    });
  }

  it('sends no proof without the dpop option, even where the server supports DPoP', async () => {
    const server = await serveDpop({ algs: ['ES256'] });
    await listTools(server.url, new OAuthProvider(machine({ dpop: false })));
    expect(server.at('/as/token')[0]?.headers.dpop).toBeUndefined();
    expect(authorizations(server)).toEqual([undefined, 'Bearer']);
  });

  it('code flow: the code is bound by dpop_jkt, the client registers for bound tokens, refresh proves the key', async () => {
    const registered: Record<string, unknown>[] = [];
    const authorized: URLSearchParams[] = [];
    const server = await serveDpop(
      {
        algs: ['ES256'],
        // The first token is already expired, so the retry refreshes it first.
        token: (form) =>
          form.get('grant_type') === 'authorization_code'
            ? { expires_in: 0, refresh_token: 'rt-1' }
            : { refresh_token: 'rt-2' },
      },
      (base) => ({
        authorization_endpoint: `${base}/as/authorize`,
        registration_endpoint: `${base}/as/register`,
        code_challenge_methods_supported: ['S256'],
      }),
      {
        '/as/register': (request) => {
          registered.push(JSON.parse(request.text) as Record<string, unknown>);
          return {
            status: 201,
            json: { client_id: 'native-1', token_endpoint_auth_method: 'none' },
          };
        },
        '/as/authorize': (request) => {
          const query = request.url.searchParams;
          authorized.push(query);
          const to = new URL(query.get('redirect_uri') ?? '');
          to.searchParams.set('code', 'code-1');
          to.searchParams.set('state', query.get('state') ?? '');
          return { status: 302, headers: { location: to.href } };
        },
      },
    );
    await listTools(server.url, new OAuthProvider({ handler: scriptedBrowser(), dpop: true }));
    expect(registered[0]).toMatchObject({ dpop_bound_access_tokens: true });
    const [code, refreshed] = server.at('/as/token');
    expect([code?.form.get('grant_type'), refreshed?.form.get('grant_type')]).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    const jkt = server.tokenProofs[0]?.jkt;
    expect(authorized[0]?.get('dpop_jkt')).toBe(jkt);
    expect(server.tokenProofs.map((proof) => proof.jkt)).toEqual([jkt, jkt]);
    expect(server.at('/mcp').map((request) => request.headers.authorization)).toEqual([
      undefined,
      'DPoP at-2',
    ]);
  });
});

describe('DPoP parts', () => {
  it.each([
    [['ES256', 'RS256'], 'ES256'],
    [['RS256', 'PS256'], 'PS256'],
    [['ES384'], 'ES384'],
    [['EdDSA'], undefined],
    [['none', 'HS256'], undefined],
    [[], undefined],
    [undefined, undefined],
  ])('dpop_signing_alg_values_supported %j: %s', (algs, chosen) => {
    expect(
      dpopAlgorithm({
        issuer: 'https://as.example',
        ...(algs === undefined ? {} : { dpop_signing_alg_values_supported: algs }),
      }),
    ).toBe(chosen);
  });

  it('a nonce challenge is answered only with a nonce the proof did not already carry', () => {
    const binding = new DpopBinding(true);
    const url = new URL('http://127.0.0.1:1/mcp');
    const response = (nonce: string | undefined, challenge = 'DPoP error="use_dpop_nonce"') => ({
      status: 401,
      headers: new Headers({
        'www-authenticate': challenge,
        ...(nonce === undefined ? {} : { 'dpop-nonce': nonce }),
      }),
    });
    const sent = (nonce: string | undefined) => ({ token: 't', dpop: { nonce } });
    expect(binding.wantsNonce(url, response('n1'), sent(undefined))).toBe(true);
    expect(binding.wantsNonce(url, response('n1'), sent('n1'))).toBe(false);
    expect(binding.wantsNonce(url, response('n2'), sent('n1'))).toBe(true);
    expect(binding.wantsNonce(url, response(undefined), sent(undefined))).toBe(false);
    expect(binding.wantsNonce(url, response('n3', 'DPoP error="invalid_token"'), sent('n1'))).toBe(
      false,
    );
    expect(binding.wantsNonce(url, response('n4'), { token: 't' })).toBe(false);
  });

  it('a stored key that does not load is no key', async () => {
    expect(await restoreDpopKey(undefined)).toBeUndefined();
    expect(
      await restoreDpopKey({
        publicJwk: { kty: 'EC', alg: 'ES256' },
        privateJwk: { kty: 'EC', alg: 'ES256', d: 'broken' },
      }),
    ).toBeUndefined();
  });
});
