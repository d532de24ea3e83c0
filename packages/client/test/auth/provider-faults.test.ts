/**
 * The OAuth client against authorization servers that lie, break or loop: each ends in a typed
 * `AuthorizationError` naming the step, the flow goes no further than the step that failed, and
 * no token, code or secret appears in the error.
 */
import { describe, expect, it } from 'vitest';
import { AuthorizationError } from '../../src/auth/errors';
import { OAuthProvider } from '../../src/auth/provider';
import type { OAuthProviderOptions } from '../../src/auth/types';
import { useEraCleanups } from '../support/era-targets';
import {
  DEFAULT_SCRIPT,
  listTools,
  type Script,
  scriptedBrowser,
  startScripted,
} from '../support/oauth-scripted';

useEraCleanups();

const SECRETS = ['the-code', 'at-1', 'rt-1', 'shh-secret'];

async function failing(script: Partial<Script>, options: OAuthProviderOptions = {}) {
  const server = await startScripted(script);
  const error = await listTools(
    server.url,
    new OAuthProvider({ handler: scriptedBrowser(), ...options }),
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  const shown = JSON.stringify({
    message: (error as Error).message,
    details: (error as AuthorizationError).details,
  });
  for (const secret of SECRETS) expect(shown).not.toContain(secret);
  expect((error as Error).cause).toBeUndefined();
  return { error: error as AuthorizationError, server };
}

const metadata = (base: string, changes: Record<string, unknown>) => ({
  ...(DEFAULT_SCRIPT.serverMetadata(base) as object),
  ...changes,
});

describe('OAuthProvider: metadata that lies', () => {
  it('rejects authorization server metadata for another issuer and uses none of it', async () => {
    const { error, server } = await failing({
      serverMetadata: (base) => metadata(base, { issuer: 'https://attacker.example' }),
    });
    expect(error.step).toBe('authorization-server-metadata');
    expect(server.registrations).toHaveLength(0);
    expect(server.authorizations).toHaveLength(0);
  });

  it('rejects resource metadata for another resource before asking any authorization server', async () => {
    const { error, server } = await failing({
      resourceMetadata: (base) => ({
        resource: 'https://evil.example/mcp',
        authorization_servers: [`${base}/as`],
      }),
    });
    expect(error.step).toBe('resource-metadata');
    expect(error.message).toContain('https://evil.example/mcp');
    expect(server.requests).not.toContain('GET /.well-known/oauth-authorization-server/as');
  });

  it('refuses a server that does not advertise PKCE S256', async () => {
    const { error, server } = await failing({
      serverMetadata: (base) => metadata(base, { code_challenge_methods_supported: ['plain'] }),
    });
    expect(error.step).toBe('authorization-server-metadata');
    expect(error.message).toContain('S256');
    expect(server.authorizations).toHaveLength(0);
  });
});

describe('OAuthProvider: redirects that are not the answer', () => {
  const redirectWith = (change: (to: URL) => void): Partial<Script> => ({
    redirect: (query, base) => {
      const to = new URL(DEFAULT_SCRIPT.redirect(query, base));
      change(to);
      return to.href;
    },
  });

  it('a wrong state ends the flow before the code is sent anywhere', async () => {
    const { error, server } = await failing(
      redirectWith((to) => to.searchParams.set('state', 'forged')),
    );
    expect(error.step).toBe('redirect');
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('a wrong iss ends the flow before the code is sent anywhere', async () => {
    const { error, server } = await failing(
      redirectWith((to) => to.searchParams.set('iss', 'https://attacker.example')),
    );
    expect(error.step).toBe('redirect');
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('a missing iss from a server that promised it ends the flow', async () => {
    const { error, server } = await failing(redirectWith((to) => to.searchParams.delete('iss')));
    expect(error.step).toBe('redirect');
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('an access_denied redirect is reported with its error code', async () => {
    const { error } = await failing({
      redirect: (query, base) => {
        const to = new URL(query.get('redirect_uri') ?? '');
        to.search = new URLSearchParams({
          error: 'access_denied',
          state: query.get('state') ?? '',
          iss: `${base}/as`,
        }).toString();
        return to.href;
      },
    });
    expect(error).toMatchObject({ step: 'redirect', details: { oauthError: 'access_denied' } });
  });
});

describe('OAuthProvider: servers that break', () => {
  it('an authorization server answering with a web page is a clear metadata error', async () => {
    const { error } = await failing({ serverMetadata: () => 'html' });
    expect(error.step).toBe('authorization-server-metadata');
    expect(error.message).toMatch(/content-type|json/i);
  });

  it('an authorization server that never answers ends within the request bound', async () => {
    const { error } = await failing({ serverMetadata: () => 'silent' }, { requestTimeoutMs: 300 });
    expect(error.step).toBe('authorization-server-metadata');
    expect(error.message).toContain('timed out');
  });

  it('invalid_grant from the token endpoint names the step and the OAuth error', async () => {
    const { error } = await failing({
      token: () => ({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'code expired' },
      }),
    });
    expect(error).toMatchObject({
      step: 'token',
      details: { oauthError: 'invalid_grant', status: 400 },
    });
    expect(error.message).toContain('code expired');
  });

  it('a server that keeps answering 401 is given up on after the bounded number of logins', async () => {
    const { error, server } = await failing(
      { accepts: () => 401 },
      { maxAuthorizationAttempts: 3 },
    );
    expect(error.step).toBe('authorization');
    expect(error.message).toContain('kept answering 401');
    // One login, then its refresh tokens: three renewals in all, none after the bound.
    expect(server.authorizations).toHaveLength(1);
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
      'refresh_token',
    ]);
  });

  it('a server that keeps answering 403 insufficient_scope is given up on as a failed step-up', async () => {
    const { error, server } = await failing({
      challenge: (base) =>
        `Bearer error="insufficient_scope", scope="admin", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      accepts: (authorization) => (authorization === undefined ? 401 : 403),
    });
    expect(error.step).toBe('step-up');
    expect(server.authorizations.length).toBeLessThanOrEqual(3);
  });

  it('a handler that never comes back is bounded by the authorization timeout', async () => {
    const server = await startScripted();
    const stuck = {
      redirectUri: () => 'http://127.0.0.1:9/callback',
      authorize: () => new Promise<never>(() => undefined),
    };
    const auth = new OAuthProvider({ handler: stuck, authorizationTimeoutMs: 200 });
    const error = await listTools(server.url, auth).catch((e: unknown) => e);
    expect(error).toMatchObject({ step: 'authorization' });
    expect((error as Error).message).toContain('200 ms');
  });

  it('a client secret never shows in a failed token request', async () => {
    const { error } = await failing(
      {
        serverMetadata: (base) =>
          metadata(base, { token_endpoint_auth_methods_supported: ['client_secret_post'] }),
        token: () => ({ status: 401, body: { error: 'invalid_client' } }),
      },
      { client: { clientId: 'app', clientSecret: 'shh-secret' } },
    );
    expect(error).toMatchObject({ step: 'token', details: { oauthError: 'invalid_client' } });
  });
});
