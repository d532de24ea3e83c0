/**
 * The manager reaching an HTTP server behind OAuth: with an `OAuthProvider` per server it logs
 * in through a real authorization server (`oidc-provider`, a scripted browser) and imports the
 * tools; without a way to ask a person it fails once, naming the step, and is not restarted.
 */
import { OAuthProvider } from '@twofold/client/experimental';
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
import { eventsOf, managerFor, QUICK_RESTART, textOf, useManagers } from './support';

useManagers();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A `whoami` server that only the authorization server's tokens for its URL may call. */
async function protectedServer(): Promise<{ as: AuthorizationServer; url: URL }> {
  const as = await startAuthorizationServer({ scopes: ['mcp'] });
  closers.push(() => as.close());
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.registerTool({ name: 'whoami', handler: (_args, context) => `${context.auth?.subject}` });
  // The resource is the endpoint's URL, known once the port is.
  let inner: HttpServerHandler | undefined;
  const late = Object.assign((request: Request) => (inner as HttpServerHandler)(request), {
    close: async () => inner?.close(),
  });
  const endpoint = await serve(late, { port: 0 });
  closers.push(() => endpoint.close());
  const url = new URL('/mcp', endpoint.url);
  as.setResource(url);
  inner = createServerHttpHandler(server, {
    auth: {
      verifyToken: jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: url.href }),
      resourceMetadata: {
        resource: url.href,
        authorization_servers: [as.issuer],
        scopes_supported: ['mcp'],
      },
    },
  });
  return { as, url };
}

describe('ServerManager with an OAuth-protected HTTP server', () => {
  it('logs in through the provider it is given and imports the tools', async () => {
    const { as, url } = await protectedServer();
    const logins: URL[] = [];
    const auth = new OAuthProvider({
      handler: {
        redirectUri: () => 'http://127.0.0.1:7/callback',
        authorize: ({ url: at }) => {
          logins.push(at);
          return as.followAuthorization(at);
        },
      },
    });
    const m = await managerFor({ mcpServers: { secure: { url: url.href } } }, { auth: () => auth });
    const [status] = await m.manager.start();
    expect(status, m.lines.join('\n')).toMatchObject({ state: 'running', era: 'modern' });
    const whoami = m.manager.registry.get('whoami');
    expect(textOf(await whoami?.invoke({}, { signal: AbortSignal.timeout(10_000) }))).toBe(
      TEST_ACCOUNT,
    );
    expect(logins).toHaveLength(1);
  });

  it('without a way to ask a person, it fails once with the step named and is not restarted', async () => {
    const { url } = await protectedServer();
    const m = await managerFor(
      { mcpServers: { secure: { url: url.href, restart: QUICK_RESTART } } },
      { auth: () => new OAuthProvider() },
    );
    const [status] = await m.manager.start();
    expect(status).toMatchObject({ state: 'failed' });
    expect(eventsOf(m, 'server-failed')).toMatchObject([{ phase: 'start', retry: false }]);
    expect(eventsOf(m, 'restart-scheduled')).toEqual([]);
    expect(m.lines.join('\n')).toMatch(/log in/);
  });
});
