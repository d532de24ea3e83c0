/**
 * The world of the authorization tests: the test authorization server (oidc-provider), protected
 * MCP endpoints in this process (twofold's everything server behind the server's `auth` option,
 * each remembering the tokens it accepted), a token directory per test, and the fake browser
 * the CLI is told to open.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jwtVerifier } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import type { HttpServerHandler } from '@twofold/transports/http-server';
import { serve } from '@twofold/transports/node';
import type { ClientMetadata } from 'oidc-provider';
import { createEverythingServer } from '../../../../apps/everything-server/src/server';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../../../../config/test-support/oidc-provider.ts';
import { until } from '../../../../config/test-support/processes.ts';
import { tsxLoader } from '../../../../config/test-support/servers.ts';
import { freshCache } from './support';

/** The scope every protected endpoint here offers. */
export const SCOPE = 'mcp:tools';

/** A scope only the `admin_ping` tool needs (a 403 `insufficient_scope` asks for it). */
export const ADMIN_SCOPE = 'mcp:admin';

/** A confidential client for the client-credentials tests. */
export const SERVICE_CLIENT = { id: 'ci-bot', secret: 'ci-bot-secret-5f2c1d' };

/** A protected MCP endpoint. */
export interface ProtectedEndpoint {
  url: string;
  /** Access tokens it accepted, in order. */
  accepted: string[];
}

/** The authorization server and what it issued. */
export interface AuthWorld {
  as: AuthorizationServer;
  /** How many refresh grants the authorization server answered. */
  refreshes(): number;
  /** Starts another protected endpoint with this authorization server. */
  protect(): Promise<ProtectedEndpoint>;
  /** Adds a resource tokens may be issued for (a bridge's URL, say). */
  allow(resource: string): void;
  close(): Promise<void>;
}

/** Starts the authorization server (with {@link SERVICE_CLIENT} registered). */
export async function startAuthWorld(): Promise<AuthWorld> {
  const extra: ClientMetadata = {
    client_id: SERVICE_CLIENT.id,
    client_secret: SERVICE_CLIENT.secret,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  };
  const as = await startAuthorizationServer({ scopes: [SCOPE, ADMIN_SCOPE], clients: [extra] });
  let refreshes = 0;
  as.events.on('grant.success', (ctx: { oidc?: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc?.params?.grant_type === 'refresh_token') refreshes++;
  });
  const resources: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  const allow = (resource: string) => {
    resources.push(resource);
    as.setResource(...resources);
  };
  return {
    as,
    refreshes: () => refreshes,
    allow,
    protect: async () => {
      let inner: HttpServerHandler | undefined;
      const late = Object.assign((request: Request) => (inner as HttpServerHandler)(request), {
        close: async () => inner?.close(),
      });
      const endpoint = await serve(late, { port: 0 });
      closers.push(() => endpoint.close());
      const url = new URL('/mcp', endpoint.url).href;
      allow(url);
      const accepted: string[] = [];
      const verify = jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: url });
      const server = createEverythingServer();
      server.registerTool({
        name: 'admin_ping',
        description: `Needs the ${ADMIN_SCOPE} scope`,
        requiredScopes: [ADMIN_SCOPE],
        handler: () => 'pong',
      });
      inner = createServerHttpHandler(server, {
        auth: {
          verifyToken: async (token, request) => {
            const grant = await verify(token, request);
            accepted.push(token);
            return grant;
          },
          resourceMetadata: {
            resource: url,
            authorization_servers: [as.issuer],
            scopes_supported: [SCOPE],
          },
        },
      });
      return { url, accepted };
    },
    close: async () => {
      for (const close of closers.splice(0)) await close();
      await as.close();
    },
  };
}

const FAKE_BROWSER = fileURLToPath(new URL('./fixtures/fake-browser.ts', import.meta.url));

/** A token directory, and the environment that makes the CLI use it and the fake browser. */
export interface LoginSetup {
  dir: string;
  env: Record<string, string>;
  /** What the fake browser did so far, one entry per step. */
  visits(): Promise<BrowserVisit[]>;
  /** Resolves once the fake browser has seen `count` pages (it outlives the CLI briefly). */
  pages(count: number): Promise<BrowserVisit[]>;
}

export interface BrowserVisit {
  step: 'redirect' | 'page' | 'error';
  authorization?: string;
  redirect?: string;
  status?: number;
  page?: string;
  error?: string;
}

/** A fresh token directory and fake browser log. */
export function loginSetup(): LoginSetup {
  const base = freshCache();
  const dir = join(base, 'auth');
  const log = join(base, 'browser.ndjson');
  writeFileSync(log, '');
  const browser = [process.execPath, '--import', tsxLoader(import.meta.url), FAKE_BROWSER];
  const visits = async () =>
    (await readFile(log, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as BrowserVisit);
  return {
    dir,
    env: {
      TWOFOLD_AUTH_DIR: dir,
      TWOFOLD_BROWSER: browser.map((word) => JSON.stringify(word)).join(' '),
      FAKE_BROWSER_LOG: log,
    },
    visits,
    pages: async (count) => {
      await until(
        async () => (await visits()).filter((v) => v.step !== 'redirect').length >= count,
        `${count} browser page(s)`,
        60_000,
      );
      return visits();
    },
  };
}

/** The one token file of `dir`, parsed. */
export function tokenFile(dir: string): { path: string; name: string; record: TokenRecord } {
  const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  if (names.length !== 1) throw new Error(`expected one token file in ${dir}, found ${names}`);
  const name = names[0] as string;
  const path = join(dir, name);
  return { path, name, record: JSON.parse(readFileSync(path, 'utf8')) as TokenRecord };
}

export interface TokenRecord {
  version: number;
  issuer: string;
  resource: string;
  credentials: {
    tokens?: { accessToken: string; refreshToken?: string; expiresAt?: number; scope?: string };
    client?: { clientId: string; clientSecret?: string };
  };
}
