/**
 * A real, certified OAuth 2.1 authorization server for the packages' tests (test-only; imported by
 * relative path): `oidc-provider` on a loopback port, with the features MCP authorization uses
 * (PKCE S256, RFC 8707 resource indicators giving JWT access tokens, open dynamic registration,
 * rotating refresh tokens, client credentials, revocation, introspection, RFC 9207 `iss`), a fixed
 * test account, and a scripted user agent that completes login and consent without a browser.
 */
import { generateKeyPair, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createLocalJWKSet, type JWK, type JWTPayload, jwtVerify } from 'jose';
import type { ClientMetadata, Configuration, default as OidcProvider } from 'oidc-provider';
import { MemoryAdapter, type MemoryStore } from './oidc-memory-adapter.ts';
import { followRedirects } from './oidc-user-agent.ts';

/** The account every scripted login signs in as (the `sub` of user tokens). */
export const TEST_ACCOUNT = 'test-user';

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The protected resources (RFC 8707 indicators, e.g. the MCP endpoint); also `setResource`. */
  resource?: string | URL | readonly (string | URL)[];
  /** The resource scopes (advertised in `scopes_supported` with `offline_access`). */
  scopes?: readonly string[];
  /** Lifetime of access tokens, user and client-credentials alike (default 3600). */
  accessTokenTtlSec?: number;
  /** Pre-registered clients, as RFC 7591 metadata. */
  clients?: readonly ClientMetadata[];
  /** JWS algorithm of access tokens (and of ID tokens by default). */
  signingAlg?: 'ES256' | 'RS256';
}

/** What {@link AuthorizationServer.followAuthorization} does at the login and consent prompts. */
export interface FollowOptions {
  /** `deny` ends the interaction with `access_denied` (default `grant`). */
  consent?: 'grant' | 'deny';
  /** The resource scopes the user grants (default: every one requested). */
  scopes?: readonly string[];
}

export interface AuthorizationServer {
  /** `http://127.0.0.1:<port>`, exactly as published (no trailing slash). */
  readonly issuer: string;
  /** RFC 8414 metadata; `/.well-known/openid-configuration` serves the same document. */
  readonly metadataUrl: string;
  readonly jwksUrl: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint: string;
  readonly revocationEndpoint: string;
  readonly introspectionEndpoint: string;
  /** The kid access tokens are signed with now. */
  readonly currentKid: string;
  /** Every event of the provider (e.g. `grant.success`, `server_error`), across key rotations. */
  readonly events: EventEmitter;
  /** `server_error` events seen so far: a test can assert there were none. */
  readonly serverErrors: readonly Error[];
  /** Replaces the protected resources that tokens may be issued for. */
  setResource(...resources: (string | URL)[]): void;
  /**
   * A browserless user agent with a fresh cookie jar: follows `authorizationUrl` through login
   * and consent; resolves with the redirect to the client's redirect_uri, never fetched.
   */
  followAuthorization(authorizationUrl: string | URL, options?: FollowOptions): Promise<URL>;
  /** A new signing key, published first in the JWKS and used from now on; returns its kid. */
  rotateKeys(): Promise<string>;
  /** Revokes the grant of a refresh token or opaque token (JWT access tokens are stateless). */
  revoke(token: string): Promise<boolean>;
  /** Verifies an access token against the published JWKS, the issuer and `audience`. */
  verifyAccessToken(token: string, audience?: string): Promise<JWTPayload>;
  close(): Promise<void>;
}

/** Starts the authorization server on `127.0.0.1:<free port>`. */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const { default: Provider, errors } = await loadProvider();
  const alg = options.signingAlg ?? 'ES256';
  const ttl = options.accessTokenTtlSec ?? 3600;
  const scopes = [...(options.scopes ?? [])];
  let resources = toResources(options.resource);
  const keys = [await signingKey(alg)];
  // State lives outside the provider, so that a key rotation can rebuild it without losing
  // clients, grants, sessions or tokens; cookie keys too, so that sessions stay valid.
  const store: MemoryStore = new Map();
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const events = new EventEmitter();
  const serverErrors: Error[] = [];
  events.on('server_error', (_ctx: unknown, error: Error) => void serverErrors.push(error));
  // Koa reports what escapes the provider as `error`: recorded, where unheard it would throw.
  events.on('error', (error: Error) => void serverErrors.push(error));

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      serverErrors.push(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = (): OidcProvider => {
    const provider = new Provider(issuer, {
      ...configuration(),
      clients: (options.clients ?? []).map((client) => ({ ...client })),
      jwks: { keys: keys.map((key) => ({ ...key })) },
    });
    const emit = provider.emit.bind(provider);
    provider.emit = (name: string | symbol, ...args: unknown[]) => {
      events.emit(name, ...args);
      return emit(name, ...args);
    };
    return provider;
  };

  const configuration = (): Configuration => ({
    adapter: (model: string) => new MemoryAdapter(model, store),
    cookies: { keys: cookieKeys },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: ['openid', 'offline_access', ...scopes],
    // OAuth 2.1: the code flow only, PKCE (S256, the only method offered) on every request.
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true, allowedPolicy: ownTokensOnly },
      introspection: { enabled: true, allowedPolicy: ownTokensOnly },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No default: a request without `resource` is not for the MCP endpoint, and gets an
        // opaque token without audience, as a client that forgot RFC 8707 deserves.
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        // The token request may leave `resource` out when the authorization had one.
        useGrantedResource: () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (!resources.includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope: scopes.join(' '),
            audience: indicator,
            accessTokenTTL: ttl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg, kid: keys[0]?.kid } },
          };
        },
      },
    },
    clientDefaults: { id_token_signed_response_alg: alg },
    // Every client allowed the refresh_token grant gets one: MCP clients rarely send
    // prompt=consent, without which oidc-provider drops offline_access from the request.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: ttl,
      ClientCredentials: ttl,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 24 * 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 24 * 3600,
      DeviceCode: 600,
      BackchannelAuthenticationRequest: 600,
      PreAuthorizedCode: 600,
    },
  });

  let provider = build();
  let handle = provider.callback();

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Interactions are ours (the scripted login and consent); everything else is the provider's.
    if (!/^\/interaction\/[^/?]+/.test(req.url ?? '')) return handle(req, res);
    const details = await provider.interactionDetails(req, res);
    if (req.method !== 'POST') return json(res, 200, { uid: details.uid, prompt: details.prompt });
    const form = new URLSearchParams(await readBody(req));
    if (form.get('decision') === 'deny') {
      const denied = { error: 'access_denied', error_description: 'the end-user denied access' };
      return provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'login') {
      const login = { login: { accountId: TEST_ACCOUNT } };
      return provider.interactionFinished(req, res, login, { mergeWithLastSubmission: false });
    }
    const granted = form.has('scope') ? new Set(form.getAll('scope')) : undefined;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: TEST_ACCOUNT, clientId: String(details.params.client_id) });
    if (!grant) throw new Error(`grant ${details.grantId} not found`);
    const prompt = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (prompt.missingOIDCScope) grant.addOIDCScope(prompt.missingOIDCScope.join(' '));
    for (const [indicator, wanted] of Object.entries(prompt.missingResourceScopes ?? {})) {
      const given = wanted.filter((scope) => granted?.has(scope) ?? true);
      if (given.length) grant.addResourceScope(indicator, given.join(' '));
      // Rejected, not just left out: a scope still missing would prompt for consent again.
      const refused = wanted.filter((scope) => !given.includes(scope));
      if (refused.length) grant.rejectResourceScope(indicator, refused.join(' '));
    }
    const grantId = await grant.save();
    const consent = { consent: details.grantId ? {} : { grantId } };
    return provider.interactionFinished(req, res, consent, { mergeWithLastSubmission: true });
  }

  const url = (name: string) => provider.urlFor(name);
  return {
    issuer,
    metadataUrl: `${issuer}/.well-known/oauth-authorization-server`,
    jwksUrl: url('jwks'),
    tokenEndpoint: url('token'),
    registrationEndpoint: url('registration'),
    revocationEndpoint: url('revocation'),
    introspectionEndpoint: url('introspection'),
    get currentKid() {
      return keys[0]?.kid ?? '';
    },
    events,
    serverErrors,
    setResource: (...next) => {
      resources = toResources(next);
    },
    followAuthorization: (authorizationUrl, follow = {}) =>
      followRedirects(new URL(authorizationUrl), issuer, (form) => {
        form.set('decision', follow.consent ?? 'grant');
        for (const scope of follow.scopes ?? []) form.append('scope', scope);
      }),
    rotateKeys: async () => {
      const key = await signingKey(alg);
      keys.unshift(key);
      provider = build();
      handle = provider.callback();
      return key.kid ?? '';
    },
    revoke: async (token) => {
      const found =
        (await provider.RefreshToken.find(token)) ??
        (await provider.AccessToken.find(token)) ??
        (await provider.ClientCredentials.find(token));
      if (!found) return false;
      await found.destroy();
      const grantId = 'grantId' in found ? found.grantId : undefined;
      if (grantId) {
        // What the revocation endpoint does to a refresh token: the whole grant goes.
        await new MemoryAdapter('Grant', store).revokeByGrantId(grantId);
        await (await provider.Grant.find(grantId))?.destroy();
      }
      return true;
    },
    verifyAccessToken: async (token, audience = resources[0]) => {
      const response = await fetch(url('jwks'), { signal: AbortSignal.timeout(10_000) });
      const jwks = createLocalJWKSet((await response.json()) as { keys: JWK[] });
      const verified = await jwtVerify(token, jwks, {
        issuer,
        typ: 'at+jwt',
        ...(audience === undefined ? {} : { audience }),
      });
      return verified.payload;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Each client revokes and introspects only its own tokens (what the default policy does). */
async function ownTokensOnly(
  _ctx: unknown,
  client: { clientId: string },
  token: { clientId?: string | undefined },
): Promise<boolean> {
  return token.clientId === client.clientId;
}

function toResources(resource: AuthorizationServerOptions['resource']): string[] {
  const list = resource === undefined ? [] : Array.isArray(resource) ? resource : [resource];
  return list.map((entry: string | URL) => new URL(entry).href);
}

async function signingKey(alg: 'ES256' | 'RS256'): Promise<JWK> {
  const pair =
    alg === 'ES256'
      ? await promisify(generateKeyPair)('ec', { namedCurve: 'P-256' })
      : await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return { ...pair.privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg, use: 'sig' };
}

type OidcModule = typeof import('oidc-provider');
let loaded: Promise<OidcModule> | undefined;

/**
 * Imports oidc-provider once, without its one unavoidable notice: it warns on every Node.js
 * release line before 22 at import time, while it runs on the 20.x this repository supports.
 */
function loadProvider(): Promise<OidcModule> {
  loaded ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes('oidc-provider WARNING: Unsupported runtime')) warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return loaded;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
