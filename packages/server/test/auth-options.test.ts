/**
 * The `auth` option with hand-written verifiers: what the handler checks on top of any verifier
 * (expiry, endpoint scopes, scope hierarchies), what it never lets out (the token), the
 * checks of the option itself, and `context.auth` off HTTP (a host-given one on stdio).
 */
import { createInMemoryPair } from '@twofold/transports/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthInfo, type HttpAuthOptions, InvalidTokenError } from '../src/auth/types';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import {
  createAuthTestServer,
  type ProtectedEndpoint,
  serveProtected,
  toolText,
} from './support/auth-server';
import { modernPost } from './support/http-posts';
import { modernParams, TestPeer } from './support/peer';

const ISSUER = 'https://auth.example.test';
let endpoint: ProtectedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

type Verify = (token: string) => Promise<AuthInfo>;

async function start(
  verify: Verify,
  extra: Partial<HttpAuthOptions> = {},
  onerror?: (error: Error) => void,
) {
  endpoint = await serveProtected(
    createAuthTestServer(),
    (resource) => ({
      verifyToken: verify,
      resourceMetadata: { resource, authorization_servers: [ISSUER] },
      ...extra,
    }),
    { onerror },
  );
  return endpoint;
}

function call(target: ProtectedEndpoint, token: string, name = 'whoami') {
  return modernPost(target.url, 1, 'tools/call', modernParams({ name, arguments: {} }), {
    headers: { authorization: `Bearer ${token}` },
  });
}

async function seenAuth(response: Response): Promise<Record<string, unknown>> {
  return JSON.parse(await toolText(response)).auth;
}

describe('the auth option around a custom verifier', () => {
  it('refuses what the verifier calls invalid, keeping a token-bearing message out', async () => {
    const target = await start(async (token) => {
      throw new InvalidTokenError(
        token === 'r3v0k3d' ? 'The access token was revoked' : `bad ${token}`,
      );
    });
    const revoked = await call(target, 'r3v0k3d');
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain(
      'error="invalid_token", error_description="The access token was revoked"',
    );
    const echoing = await call(target, 'sekrit');
    const text = `${echoing.headers.get('www-authenticate')} ${await echoing.text()}`;
    expect(echoing.status).toBe(401);
    expect(text).not.toContain('sekrit');
    expect(text).toContain('The access token is not valid');
  });

  it('answers 500 when verifying fails for another reason, reporting it', async () => {
    const errors: Error[] = [];
    const target = await start(
      async () => {
        throw new Error('introspection endpoint unreachable');
      },
      {},
      (error) => errors.push(error),
    );
    expect((await call(target, 'tok')).status).toBe(500);
    expect(errors.map((error) => error.message)).toEqual(['introspection endpoint unreachable']);
  });

  it('refuses an expired grant, whatever the verifier says', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const target = await start(async (token) => ({
      scopes: [],
      expiresAt: token === 'old' ? past : past + 3600,
    }));
    const old = await call(target, 'old');
    expect(old.status).toBe(401);
    expect(old.headers.get('www-authenticate')).toContain('has expired');
    expect((await call(target, 'fresh')).status).toBe(200);
  });

  it('checks endpoint scopes on every request, with scope hierarchies', async () => {
    const target = await start(async (token) => ({ scopes: token.split('.') }), {
      requiredScopes: ['mcp:use'],
      // `mcp` covers every `mcp:*` scope, and `files` every `files:*`.
      scopeSatisfied: (granted, required) =>
        granted.includes(required) || granted.includes(required.split(':')[0] ?? ''),
    });
    const refused = await call(target, 'other');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp:use"');
    expect((await call(target, 'mcp')).status).toBe(200);
    expect((await call(target, 'mcp', 'write')).status).toBe(403);
    expect((await call(target, 'mcp.files', 'write')).status).toBe(200);
  });

  it('never hands a token to handlers, even one a verifier returned', async () => {
    const target = await start(
      async (token) => ({ subject: 'alice', scopes: ['a'], token }) as unknown as AuthInfo,
    );
    const auth = await seenAuth(await call(target, 'raw-token-value'));
    expect(auth).toEqual({ subject: 'alice', scopes: ['a'] });
  });

  it('checks the option when the handler is built', async () => {
    const bad = async (metadata: Record<string, unknown>) => {
      const attempt = serveProtected(createAuthTestServer(), (resource) => ({
        verifyToken: async () => ({ scopes: [] }),
        resourceMetadata: { resource, authorization_servers: [ISSUER], ...metadata },
      }));
      await expect(attempt).rejects.toThrow(TypeError);
    };
    await bad({ authorization_servers: [] });
    await bad({ resource: 'https://mcp.example.test/mcp#frag' });
    await bad({ resource: 'mcp.example.test' });
    await bad({ bearer_methods_supported: ['header', 'query'] });
    await bad({ scopes_supported: ['has space'] });
    const noVerifier = serveProtected(
      createAuthTestServer(),
      (resource) =>
        ({
          resourceMetadata: { resource, authorization_servers: [ISSUER] },
        }) as unknown as HttpAuthOptions,
    );
    await expect(noVerifier).rejects.toThrow(/verifyToken/);
  });

  it('checks requiredScopes at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() =>
      server.registerTool({ name: 't', requiredScopes: ['two words'], handler: () => '' }),
    ).toThrow(TypeError);
  });
});

describe('context.auth off HTTP', () => {
  it('is what the host passed to serveTransport, in both eras, and headers are absent', async () => {
    const auth: AuthInfo = { subject: 'local-user', scopes: ['all'] };
    const [serverEnd, clientEnd] = createInMemoryPair();
    const connection = await serveTransport(createAuthTestServer(), serverEnd, { auth });
    const peer = new TestPeer(clientEnd);
    await peer.start();
    const modern = await peer.request('tools/call', modernParams({ name: 'whoami' }));
    const seen = (response: unknown) =>
      JSON.parse(
        ((response as { result: { content: { text: string }[] } }).result.content[0]?.text ??
          '{}') as string,
      );
    expect(seen(modern)).toEqual({ era: 'modern', auth });
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    await peer.notify('notifications/initialized');
    const legacy = await peer.request('tools/call', { name: 'whoami' });
    expect(seen(legacy)).toEqual({ era: 'legacy', auth });
    await connection.close();
  });
});
