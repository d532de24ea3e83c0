/**
 * The grants a program uses on its own behalf, through the real HTTP transport against a
 * loopback authorization server: client credentials with `client_secret_basic` and with
 * `private_key_jwt` (the assertion verified with jose), the RFC 7523 JWT bearer grant of a
 * workload, and failures that name no credential even when the server echoes what it got.
 */
import {
  decodeProtectedHeader,
  exportPKCS8,
  generateKeyPair,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { AuthorizationError } from '../../src/auth/errors';
import { OAuthProvider } from '../../src/auth/provider';
import type { OAuthProviderOptions } from '../../src/auth/types';
import { useEraCleanups } from '../support/era-targets';
import { listTools } from '../support/oauth-scripted';
import {
  type ExtensionServer,
  issued,
  metadataRoutes,
  type Route,
  type Seen,
  serveRoutes,
  toolsResult,
  unauthorized,
} from './extension-servers';

useEraCleanups();

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A server whose token endpoint is `token`; the MCP endpoint takes the tokens it issued. */
async function serve(metadata: Record<string, unknown>, token: Route): Promise<ExtensionServer> {
  const tokens = new Set<string>();
  return serveRoutes({
    ...metadataRoutes(metadata),
    '/as/token': async (request, base) => {
      const reply = await token(request, base);
      const accessToken = (reply.json as { access_token?: unknown } | undefined)?.access_token;
      if (typeof accessToken === 'string') tokens.add(accessToken);
      return reply;
    },
    '/mcp': (request, base) => {
      const presented = request.headers.authorization?.replace(/^Bearer /, '');
      return presented !== undefined && tokens.has(presented)
        ? toolsResult(request)
        : unauthorized(base);
    },
  });
}

function basicCredentials(request: Seen): [string, string] | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return undefined;
  const [id = '', secret = ''] = atob(header.slice(6)).split(':');
  return [decodeURIComponent(id), decodeURIComponent(secret)];
}

describe('client credentials', () => {
  it('authenticates with client_secret_basic and sends the resource, no secret in the body', async () => {
    const server = await serve(
      {
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
      (request) =>
        basicCredentials(request)?.join(' ') === 'svc.reporter-1 s3cr3t~value_x'
          ? issued('cc-1')
          : { status: 401, json: { error: 'invalid_client' } },
    );
    const auth = new OAuthProvider({
      grant: { type: 'client_credentials' },
      client: { clientId: 'svc.reporter-1', clientSecret: 's3cr3t~value_x' },
    });
    expect(await listTools(server.url, auth)).toMatchObject({ result: { tools: [] } });
    const [token] = server.at('/as/token');
    expect(token?.form.get('grant_type')).toBe('client_credentials');
    expect(token?.form.get('resource')).toBe(`${server.base}/mcp`);
    expect(token?.form.has('client_secret')).toBe(false);
    expect(server.at('/mcp').map((r) => r.headers.authorization)).toEqual([
      undefined,
      'Bearer cc-1',
    ]);
  });

  it('signs a private_key_jwt assertion for the issuer, finding the algorithm of a PEM key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const assertions: { header: ReturnType<typeof decodeProtectedHeader>; payload: JWTPayload }[] =
      [];
    const server = await serve(
      {
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      },
      async (request, base) => {
        expect(request.form.get('client_assertion_type')).toBe(ASSERTION_TYPE);
        const assertion = request.form.get('client_assertion') ?? '';
        const { payload } = await jwtVerify(assertion, publicKey, { audience: `${base}/as` });
        assertions.push({ header: decodeProtectedHeader(assertion), payload });
        return issued('cc-jwt');
      },
    );
    const auth = new OAuthProvider({
      grant: { type: 'client_credentials' },
      client: { clientId: 'svc-signer', privateKey: await exportPKCS8(privateKey) },
    });
    await listTools(server.url, auth);
    expect(assertions).toHaveLength(1);
    expect(assertions[0]?.header.alg).toBe('ES256');
    expect(assertions[0]?.payload).toMatchObject({ iss: 'svc-signer', sub: 'svc-signer' });
    expect(assertions[0]?.payload.jti).toEqual(expect.any(String));
    expect(assertions[0]?.payload.exp).toEqual(expect.any(Number));
  });

  it('signs with a CryptoKey as its own algorithm', async () => {
    const { publicKey, privateKey } = await generateKeyPair('PS256');
    let verified: JWTPayload | undefined;
    const server = await serve(
      { token_endpoint_auth_methods_supported: ['private_key_jwt'] },
      async (request, base) => {
        const assertion = request.form.get('client_assertion') ?? '';
        ({ payload: verified } = await jwtVerify(assertion, publicKey, {
          audience: `${base}/as`,
          algorithms: ['PS256'],
        }));
        return issued('cc-ps');
      },
    );
    const auth = new OAuthProvider({
      grant: { type: 'client_credentials' },
      client: { clientId: 'svc-ps', privateKey },
    });
    await listTools(server.url, auth);
    expect(verified).toMatchObject({ iss: 'svc-ps', sub: 'svc-ps' });
  });

  it('refuses a PEM key that is no key before any token request', async () => {
    const server = await serve({ token_endpoint_auth_methods_supported: ['private_key_jwt'] }, () =>
      issued('never'),
    );
    const auth = new OAuthProvider({
      grant: { type: 'client_credentials' },
      client: { clientId: 'svc', privateKey: 'not a key at all', signingAlgorithm: 'ES256' },
    });
    const error = await listTools(server.url, auth).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).step).toBe('client-registration');
    expect((error as Error).message).not.toContain('not a key at all');
    expect(server.at('/as/token')).toHaveLength(0);
  });
});

describe('JWT bearer (workload identity)', () => {
  const metadata = {
    grant_types_supported: [JWT_BEARER],
    token_endpoint_auth_methods_supported: ['none'],
  };

  it('presents the assertion as the jwt-bearer grant, asking for it when a token is needed', async () => {
    const server = await serve(metadata, (request) =>
      issued(`wif-${request.form.get('assertion')}`),
    );
    let asked = 0;
    const auth = new OAuthProvider({
      grant: { type: 'jwt_bearer', assertion: async () => `workload-jwt-${++asked}` },
      client: { clientId: 'workload' },
    });
    await listTools(server.url, auth);
    await listTools(server.url, auth, 2);
    expect(asked).toBe(1);
    const [token] = server.at('/as/token');
    expect(token?.form.get('grant_type')).toBe(JWT_BEARER);
    expect(token?.form.get('assertion')).toBe('workload-jwt-1');
    expect(token?.form.get('client_id')).toBe('workload');
    expect(token?.form.get('resource')).toBe(`${server.base}/mcp`);
  });

  it('surfaces a rejected assertion once: no retry, no other grant', async () => {
    const server = await serve(metadata, () => ({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'assertion expired' },
    }));
    let asked = 0;
    const auth = new OAuthProvider({
      grant: { type: 'jwt_bearer', assertion: () => `expired-jwt-${++asked}` },
      client: { clientId: 'workload' },
    });
    const error = await listTools(server.url, auth).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ step: 'token', details: { oauthError: 'invalid_grant' } });
    expect(server.at('/as/token')).toHaveLength(1);
    expect(asked).toBe(1);
  });
});

describe('a failing token request names no credential', () => {
  /** A token endpoint that echoes everything it was sent back in its error. */
  const echo: Route = (request) => ({
    status: 400,
    json: {
      error: 'invalid_request',
      error_description: `got ${request.text} with ${request.headers.authorization ?? 'no header'}`,
    },
  });

  async function failure(options: OAuthProviderOptions, secrets: string[]) {
    const server = await serve(
      {
        grant_types_supported: ['client_credentials', JWT_BEARER],
        token_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
          'private_key_jwt',
          'none',
        ],
      },
      echo,
    );
    const error = await listTools(server.url, new OAuthProvider(options)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).message).toContain('[redacted]');
    const shown = [
      (error as Error).message,
      JSON.stringify((error as AuthorizationError).details),
      String(error),
      (error as Error).stack ?? '',
    ].join('\n');
    for (const secret of secrets) expect(shown).not.toContain(secret);
    return error as AuthorizationError;
  }

  it('client_secret_basic: neither the secret nor the Basic credentials', async () => {
    const secret = 'basic-secret-value-123';
    await failure(
      {
        grant: { type: 'client_credentials' },
        client: {
          clientId: 'svc',
          clientSecret: secret,
          tokenEndpointAuthMethod: 'client_secret_basic',
        },
      },
      [secret, btoa(`svc:${secret}`)],
    );
  });

  it('client_secret_post: not the secret, nor its form encoding', async () => {
    const secret = 'post secret~value/456+=';
    await failure(
      {
        grant: { type: 'client_credentials' },
        client: {
          clientId: 'svc',
          clientSecret: secret,
          tokenEndpointAuthMethod: 'client_secret_post',
        },
      },
      [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)],
    );
  });

  it('private_key_jwt and JWT bearer: neither the assertions nor the private key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const keyBody = pem.split('\n')[1] ?? '';
    const workloadJwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJl';
    const error = await failure(
      {
        grant: { type: 'jwt_bearer', assertion: () => workloadJwt },
        client: { clientId: 'svc', privateKey: pem, tokenEndpointAuthMethod: 'private_key_jwt' },
      },
      [workloadJwt, keyBody],
    );
    // The client assertion went out too; it is masked as well.
    expect(error.message).toContain('client_assertion=[redacted]');
  });
});
