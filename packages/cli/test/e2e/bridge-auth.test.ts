/**
 * `twofold bridge` and authorization through the built binary: a protected HTTP upstream is
 * reached with the bridge's own stored token (stdio direction: exit 77 naming the login when
 * there is none), and with `--listen … --auth-issuer` the bridge asks its downstream clients
 * for tokens of their own, which never go upstream (no token passthrough).
 */
import { fileURLToPath } from 'node:url';
import { InMemoryTokenStore, McpClient, OAuthProvider } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthWorld,
  loginSetup,
  type ProtectedEndpoint,
  SCOPE,
  startAuthWorld,
  tokenFile,
} from './auth-support';
import { freshCache, twofold, twofoldInBackground } from './support';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let world: AuthWorld;
let upstream: ProtectedEndpoint;

beforeAll(async () => {
  world = await startAuthWorld();
  upstream = await world.protect();
}, 120_000);
afterAll(() => world?.close());

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** A token directory holding a login to the upstream. */
async function loggedIn() {
  const setup = loginSetup();
  const login = await twofold(['login', '--url', upstream.url], { env: setup.env });
  expect(login.code, login.stderr).toBe(0);
  const { TWOFOLD_BROWSER: _, ...env } = setup.env;
  return { ...setup, env, token: tokenFile(setup.dir).record.credentials.tokens?.accessToken };
}

describe('twofold bridge with authorization', { timeout: 180_000 }, () => {
  it('serves a protected HTTP server on stdio with its stored token; exit 77 without one', async () => {
    const none = await twofold(['bridge', '--url', upstream.url], { env: loginSetup().env });
    expect(none.code).toBe(77);
    expect(none.stderr).toContain(`run \`twofold login --url ${upstream.url}\``);
    expect(none.stdout).toBe('');

    const { env, token } = await loggedIn();
    const client = await McpClient.connect(
      stdioServer({
        command: process.execPath,
        args: [BIN, 'bridge', '--url', upstream.url],
        env: { ...env, TWOFOLD_CACHE_DIR: freshCache() },
      }),
      { clientInfo: { name: 'host', version: '1.0.0' } },
    );
    closers.push(() => client.close());
    const sum = await client.callTool('add', { a: 2, b: 40 });
    expect(sum.structuredContent).toEqual({ sum: 42 });
    expect(upstream.accepted).toContain(token);
  });

  it('asks downstream clients for their own tokens and never passes them upstream', async () => {
    const { env, token: bridgeToken } = await loggedIn();
    const running = twofoldInBackground(
      [
        'bridge',
        '--listen',
        '127.0.0.1:0',
        '--url',
        upstream.url,
        '--auth-issuer',
        world.as.issuer,
        '--auth-scope',
        SCOPE,
      ],
      { env },
    );
    closers.push(() => running.interrupt());
    await running.waitFor(
      /published on (http:\/\/\S+), for both eras, bearer tokens required/,
      60_000,
    );
    const url = /published on (http:\/\/\S+),/.exec(running.output().stderr)?.[1] as string;
    world.allow(url);

    // No token: a challenge naming the bridge's resource metadata.
    const bare = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover' }),
    });
    await bare.body?.cancel();
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toContain(
      `resource_metadata="${new URL('/.well-known/oauth-protected-resource', url).href}"`,
    );

    const before = upstream.accepted.length;
    const store = new InMemoryTokenStore();
    const auth = new OAuthProvider({
      store,
      // The scripted user agent never fetches the redirect: no listener is needed behind it.
      handler: {
        redirectUri: () => 'http://127.0.0.1:9/callback',
        authorize: ({ url: at }) => world.as.followAuthorization(at),
      },
    });
    const client = await McpClient.connect(httpServer({ url, auth }), {
      clientInfo: { name: 'downstream', version: '1.0.0' },
      // Its first request carries a whole login: the probe may take longer than its default.
      probeTimeoutMs: 30_000,
    });
    closers.push(() => client.close());
    const sum = await client.callTool('add', { a: 20, b: 22 });
    expect(sum.structuredContent).toEqual({ sum: 42 });

    const downstreamToken = (await store.get({ issuer: world.as.issuer, resource: url }))?.tokens
      ?.accessToken as string;
    expect(downstreamToken).toBeTypeOf('string');
    expect((await world.as.verifyAccessToken(downstreamToken, url)).aud).toBe(url);
    const seen = upstream.accepted.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain(downstreamToken);
    // Only the bridge's own token, issued for the upstream.
    expect(new Set(seen)).toEqual(new Set([bridgeToken]));
    expect((await world.as.verifyAccessToken(bridgeToken as string, upstream.url)).aud).toBe(
      upstream.url,
    );
  });

  it('refuses the downstream options without --listen or without --auth-issuer', async () => {
    const stdio = await twofold([
      'bridge',
      '--url',
      upstream.url,
      '--auth-issuer',
      world.as.issuer,
    ]);
    expect(stdio.code).toBe(64);
    expect(stdio.stderr).toContain('--auth-issuer applies to --listen');
    const lone = await twofold([
      'bridge',
      '--listen',
      '127.0.0.1:0',
      '--auth-scope',
      'x',
      '--url',
      upstream.url,
    ]);
    expect(lone.code).toBe(64);
    expect(lone.stderr).toContain('--auth-scope needs --auth-issuer');
  });
});
