/**
 * OAuthProvider through the real Streamable HTTP transport against a scripted resource and
 * authorization server: the whole flow as the spec orders it, reuse and refresh of tokens,
 * concurrent challenges, and which resource a token may go to.
 */
import { describe, expect, it } from 'vitest';
import { AuthorizationError } from '../../src/auth/errors';
import { InMemoryTokenStore } from '../../src/auth/memory-store';
import { OAuthProvider } from '../../src/auth/provider';
import { useEraCleanups } from '../support/era-targets';
import {
  DEFAULT_SCRIPT,
  listTools,
  type ScriptedServer,
  scriptedBrowser,
  startScripted,
} from '../support/oauth-scripted';

useEraCleanups();

/** A server that, once `on`, rejects the first token it issued (as if it were revoked). */
const revoking = {
  on: false,
  accepts(authorization: string | undefined, tokens: readonly string[]): 200 | 401 {
    if (authorization === undefined || (revoking.on && authorization === 'Bearer at-1')) return 401;
    return tokens.includes(authorization.slice('Bearer '.length)) ? 200 : 401;
  },
};

/** Two calls through one provider, the first token revoked in between. */
async function twoCallsRevokingTheFirstToken(server: ScriptedServer): Promise<void> {
  revoking.on = false;
  const auth = new OAuthProvider({ handler: scriptedBrowser() });
  await listTools(server.url, auth, 1);
  revoking.on = true;
  await listTools(server.url, auth, 2);
}

describe('OAuthProvider: the authorization code flow', () => {
  it('discovers, registers, authorizes with PKCE and retries the request with the token', async () => {
    const server = await startScripted({
      challenge: (base) =>
        `Bearer error="invalid_token", scope="mcp:read", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    });
    const browser = scriptedBrowser();
    const answer = await listTools(server.url, new OAuthProvider({ handler: browser }));
    expect(answer).toMatchObject({ id: 1, result: { tools: [] } });
    expect(server.requests).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /.well-known/oauth-authorization-server/as',
      'POST /as/register',
      'GET /as/authorize',
      'POST /as/token',
      'POST /mcp',
    ]);
    const [query] = server.authorizations;
    expect(query?.get('code_challenge_method')).toBe('S256');
    expect(query?.get('resource')).toBe(`${server.base}/mcp`);
    expect(query?.get('scope')).toBe('mcp:read');
    expect(query?.get('state')).toMatch(/.{16,}/);
    const [token] = server.tokenRequests;
    expect(token?.get('grant_type')).toBe('authorization_code');
    expect(token?.get('resource')).toBe(`${server.base}/mcp`);
    expect(token?.get('code_verifier')).toMatch(/^[\w-]{43,128}$/);
    expect(server.registrations[0]).toMatchObject({
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(server.mcpAuthorizations).toEqual([undefined, 'Bearer at-1']);
  });

  it('answers concurrent 401s with one authorization', async () => {
    const server = await startScripted();
    const auth = new OAuthProvider({ handler: scriptedBrowser() });
    const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => listTools(server.url, auth, id)));
    expect(answers).toHaveLength(5);
    expect(server.authorizations).toHaveLength(1);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('a second provider on the same store uses the stored token without a login', async () => {
    const server = await startScripted();
    const store = new InMemoryTokenStore();
    await listTools(server.url, new OAuthProvider({ handler: scriptedBrowser(), store }));
    const later = new OAuthProvider({ store });
    await listTools(server.url, later);
    expect(server.authorizations).toHaveLength(1);
    expect(server.mcpAuthorizations.at(-1)).toBe('Bearer at-1');
  });

  it('refreshes a rejected token instead of asking the person again', async () => {
    const server = await startScripted({ accepts: revoking.accepts });
    await twoCallsRevokingTheFirstToken(server);
    expect(server.authorizations).toHaveLength(1);
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(server.tokenRequests[1]?.get('refresh_token')).toBe('rt-1');
    expect(server.mcpAuthorizations.at(-1)).toBe('Bearer at-2');
  });

  it('refreshes a token near its expiry before sending it', async () => {
    const server = await startScripted();
    const store = new InMemoryTokenStore();
    await listTools(server.url, new OAuthProvider({ handler: scriptedBrowser(), store }));
    const key = { issuer: `${server.base}/as`, resource: `${server.base}/mcp` };
    const kept = await store.get(key);
    const tokens = kept?.tokens;
    if (tokens === undefined) throw new Error('no tokens were stored');
    await store.set(key, { ...kept, tokens: { ...tokens, expiresAt: Date.now() - 1 } });
    const later = new OAuthProvider({ handler: scriptedBrowser(), store });
    await listTools(server.url, later);
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(server.authorizations).toHaveLength(1);
  });

  it('a refused refresh (invalid_grant) falls back to a new authorization', async () => {
    const server = await startScripted({
      token: (body, issued) =>
        body.get('grant_type') === 'refresh_token'
          ? { status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } }
          : DEFAULT_SCRIPT.token(body, issued),
      accepts: revoking.accepts,
    });
    await twoCallsRevokingTheFirstToken(server);
    expect(server.authorizations).toHaveLength(2);
  });

  it('steps up on insufficient_scope with the union of the scopes asked so far', async () => {
    let calls = 0;
    const server = await startScripted({
      challenge: (base) =>
        calls > 1
          ? `Bearer error="insufficient_scope", scope="files:write", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
          : `Bearer scope="files:read", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      accepts: (authorization, tokens) => {
        calls++;
        if (authorization === undefined || !tokens.includes(authorization.slice(7))) return 401;
        return authorization === 'Bearer at-1' && calls > 2 ? 403 : 200;
      },
    });
    const auth = new OAuthProvider({ handler: scriptedBrowser() });
    await listTools(server.url, auth, 1);
    await listTools(server.url, auth, 2);
    expect(server.authorizations.map((query) => query.get('scope'))).toEqual([
      'files:read',
      'files:read files:write',
    ]);
  });

  it('sends a token only to the resource it was issued for', async () => {
    const first = await startScripted();
    const second = await startScripted({ accepts: () => 200 });
    const auth = new OAuthProvider({ handler: scriptedBrowser() });
    await listTools(first.url, auth);
    await listTools(second.url, auth);
    expect(second.mcpAuthorizations).toEqual([undefined]);
  });

  it('without a handler, a needed login is an interaction-required error', async () => {
    const server = await startScripted();
    const error = await listTools(server.url, new OAuthProvider()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', step: 'interaction-required' });
    expect(server.authorizations).toHaveLength(0);
  });
});
