/**
 * The whole of MCP authorization with real parts on both sides: `oidc-provider` (a certified
 * OpenID provider) as the authorization server, a twofold `McpServer` protected by
 * `jwtVerifier`, and `McpClient` with `OAuthProvider`, whose handler is a scripted browser
 * that logs in and consents. Covers both eras, the handler's view of the caller, step-up, refresh,
 * a revoked grant and a rotated signing key.
 */
import { jwtVerifier, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import type { HttpServerHandler } from '@twofold/transports/http-server';
import { serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
  TEST_ACCOUNT,
} from '../../../../config/test-support/oidc-provider.ts';
import { AuthorizationError } from '../../src/auth/errors';
import { InMemoryTokenStore } from '../../src/auth/memory-store';
import { OAuthProvider } from '../../src/auth/provider';
import type { AuthorizationHandler } from '../../src/auth/types';
import { McpClient } from '../../src/client';
import { httpServer } from '../../src/targets/http';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  as: AuthorizationServer;
  url: URL;
  /** Every authorization URL the browser was sent to. */
  logins: URL[];
  browser: AuthorizationHandler;
}

/** An authorization server, a protected MCP endpoint it issues tokens for, and a browser. */
async function setup(): Promise<Setup> {
  const as = await startAuthorizationServer({ scopes: ['mcp:read', 'mcp:write'] });
  cleanups.push(() => as.close());
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.registerTool({
    name: 'whoami',
    handler: (_args, context) =>
      `${context.era} ${context.auth?.subject} ${context.auth?.scopes.join(',')}`,
  });
  server.registerTool({ name: 'write', requiredScopes: ['mcp:write'], handler: () => 'written' });
  // The resource is the endpoint's URL, known once the port is: the handler is built then.
  let inner: HttpServerHandler | undefined;
  const late = Object.assign((request: Request) => (inner as HttpServerHandler)(request), {
    close: async () => inner?.close(),
  });
  const endpoint = await serve(late, { port: 0 });
  cleanups.push(() => endpoint.close());
  const url = new URL('/mcp', endpoint.url);
  as.setResource(url);
  inner = createServerHttpHandler(server, {
    auth: {
      // No cooldown between key set fetches: a rotation right after the first fetch is the test.
      verifyToken: jwtVerifier({
        jwksUrl: as.jwksUrl,
        issuer: as.issuer,
        audience: url.href,
        jwksCooldownMs: 0,
      }),
      resourceMetadata: {
        resource: url.href,
        authorization_servers: [as.issuer],
        scopes_supported: ['mcp:read'],
      },
    },
  });
  const logins: URL[] = [];
  const browser: AuthorizationHandler = {
    redirectUri: () => 'http://127.0.0.1:7/callback',
    authorize: ({ url: at }) => {
      logins.push(at);
      return as.followAuthorization(at);
    },
  };
  return { as, url, logins, browser };
}

async function connect(setup: Setup, auth: OAuthProvider, era: 'auto' | 'legacy' = 'auto') {
  const client = await McpClient.connect(httpServer({ url: setup.url, auth }), {
    clientInfo: { name: 'e2e', version: '1.0.0' },
    era,
  });
  cleanups.push(() => client.close());
  return client;
}

function text(result: { content: unknown[] }): string {
  const [block] = result.content as { text?: string }[];
  return block?.text ?? '';
}

describe('MCP authorization end to end (oidc-provider, jwtVerifier, OAuthProvider)', () => {
  it.each(['auto', 'legacy'] as const)(
    'logs in once and the handler sees the caller (%s)',
    async (era) => {
      const s = await setup();
      const client = await connect(s, new OAuthProvider({ handler: s.browser }), era);
      const answer = text(await client.callTool('whoami'));
      expect(answer).toBe(`${era === 'auto' ? 'modern' : 'legacy'} ${TEST_ACCOUNT} mcp:read`);
      expect(s.logins).toHaveLength(1);
      expect(s.logins[0]?.searchParams.get('scope')).toBe('mcp:read offline_access');
      expect(s.as.serverErrors).toEqual([]);
    },
  );

  it('without a handler, connect rejects with the AuthorizationError itself', async () => {
    const s = await setup();
    const error = await connect(s, new OAuthProvider()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ step: 'interaction-required', details: { issuer: s.as.issuer } });
  });

  it('steps up to the scope a tool requires, keeping the one granted before', async () => {
    const s = await setup();
    const client = await connect(s, new OAuthProvider({ handler: s.browser }));
    expect(text(await client.callTool('write'))).toBe('written');
    expect(s.logins.map((login) => login.searchParams.get('scope'))).toEqual([
      'mcp:read offline_access',
      'mcp:read offline_access mcp:write',
    ]);
    expect(text(await client.callTool('whoami'))).toContain('mcp:read,mcp:write');
  });

  it('refreshes an expired token with the rotated refresh token, without a login', async () => {
    const s = await setup();
    const store = new InMemoryTokenStore();
    const first = await connect(s, new OAuthProvider({ handler: s.browser, store }));
    await first.callTool('whoami');
    await expireStoredTokens(store, s);
    const second = await connect(s, new OAuthProvider({ handler: s.browser, store }));
    expect(text(await second.callTool('whoami'))).toContain(TEST_ACCOUNT);
    expect(s.logins).toHaveLength(1);
  });

  it('after the grant is revoked, a refresh is refused and the person is asked again', async () => {
    const s = await setup();
    const store = new InMemoryTokenStore();
    await (await connect(s, new OAuthProvider({ handler: s.browser, store }))).callTool('whoami');
    const kept = await expireStoredTokens(store, s);
    expect(await s.as.revoke(kept.refreshToken ?? '')).toBe(true);
    const client = await connect(s, new OAuthProvider({ handler: s.browser, store }));
    expect(text(await client.callTool('whoami'))).toContain(TEST_ACCOUNT);
    expect(s.logins).toHaveLength(2);
  });

  it('tokens signed with a rotated key are accepted by the server', async () => {
    const s = await setup();
    await (await connect(s, new OAuthProvider({ handler: s.browser }))).callTool('whoami');
    const kid = await s.as.rotateKeys();
    const client = await connect(s, new OAuthProvider({ handler: s.browser }));
    expect(text(await client.callTool('whoami'))).toContain(TEST_ACCOUNT);
    expect(s.logins).toHaveLength(2);
    expect(kid).toBe(s.as.currentKid);
  });
});

/** Makes the stored access token look expired (the store is the other process's view). */
async function expireStoredTokens(store: InMemoryTokenStore, s: Setup) {
  const key = { issuer: s.as.issuer, resource: s.url.href };
  const kept = await store.get(key);
  if (kept?.tokens === undefined) throw new Error('no tokens were stored');
  await store.set(key, { ...kept, tokens: { ...kept.tokens, expiresAt: Date.now() - 1 } });
  return kept.tokens;
}
