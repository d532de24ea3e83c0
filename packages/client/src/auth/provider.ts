/**
 * `OAuthProvider`: MCP authorization for the HTTP transports. It answers a 401 by discovering
 * the authorization server (every time: the server may have moved), reusing a stored or
 * refreshed token when it can, else getting one with the configured grant; a 403
 * `insufficient_scope` by asking again for the union of the scopes so far and the challenge's.
 * Flows in a row without a successful response are bounded. Tokens are sent only to the
 * resource they were issued for.
 */
import type {
  HttpAuthorizer,
  HttpAuthRequest,
  HttpAuthResponse,
} from '@twofold/transports/experimental';
import type * as oauth from 'oauth4webapi';
import { type AuthChallenge, challengeScopes, oauthChallenge, splitScopes } from './challenge';
import { DpopBinding, type DpopKey, type Presented, restoreDpopKey, storeDpopKey } from './dpop';
import { AuthorizationError } from './errors';
import type { GrantContext } from './grants';
import type { ClientIdentity } from './identity';
import { InMemoryTokenStore, keyString } from './memory-store';
import type { OAuthHttp } from './oauth-http';
import type {
  AuthorizationHandler,
  OAuthProviderOptions,
  StoredCredentials,
  StoredTokens,
  TokenKey,
  TokenStore,
} from './types';

/** What the provider knows about one MCP endpoint. */
interface Session {
  key: TokenKey;
  as: oauth.AuthorizationServer;
  scopesSupported: readonly string[] | undefined;
  identity?: ClientIdentity;
  tokens?: StoredTokens;
  /** The DPoP key the tokens are (to be) bound to, when DPoP is in use. */
  dpop?: DpopKey | undefined;
  /** Every scope asked for so far: re-authorization asks for their union with the challenge's. */
  requested: Set<string>;
  /** Logins and refreshes in a row without a successful response. */
  attempts: number;
}

/** The flows, loaded on first need (see flows.ts). */
const loadFlows = () => import('./flows');

/** A token this close to its expiry (or a quarter of its lifetime, if less) is renewed first. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * OAuth 2.1 authorization for an MCP server reached over HTTP: pass it as `auth` to
 * `httpServer`. It finds the authorization server from the server's 401 (RFC 9728, RFC 8414,
 * OpenID Connect discovery), identifies the client (pre-registered, Client ID Metadata
 * Document, or Dynamic Client Registration), runs the authorization code flow with PKCE
 * through your {@link AuthorizationHandler} (or a client credentials, JWT bearer or
 * enterprise-managed grant), keeps the tokens in a {@link TokenStore}, refreshes them, and steps
 * up on `insufficient_scope`. With `dpop: true` the tokens are bound to a DPoP key (RFC 9449)
 * wherever the authorization server supports it.
 *
 * @example
 * ```ts
 * import { McpClient, OAuthProvider } from '@twofold/client/experimental';
 * import { httpServer } from '@twofold/client/node';
 *
 * const auth = new OAuthProvider({
 *   handler: {
 *     redirectUri: () => 'http://127.0.0.1:8976/callback',
 *     authorize: async ({ url }) => openBrowserAndWaitForRedirect(url),
 *   },
 * });
 * const client = await McpClient.connect(httpServer({ url: 'https://mcp.example.com/mcp', auth }), {
 *   clientInfo: { name: 'my-app', version: '1.0.0' },
 * });
 * ```
 *
 * @experimental
 */
export class OAuthProvider implements HttpAuthorizer {
  readonly #options: OAuthProviderOptions;
  readonly #http: OAuthHttp;
  readonly #store: TokenStore;
  readonly #sessions = new Map<string, Session>();
  readonly #metadata = new Map<string, oauth.AuthorizationServer>();
  /** What each request went out with, to tell a stale rejection from a fresh one. */
  readonly #sent = new WeakMap<HttpAuthRequest, Presented>();
  readonly #dpop: DpopBinding;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(options: OAuthProviderOptions = {}) {
    this.#options = options;
    this.#store = options.store ?? new InMemoryTokenStore();
    this.#http = {
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      timeoutMs: options.requestTimeoutMs ?? 30_000,
    };
    this.#dpop = new DpopBinding(options.dpop === true);
  }

  /** @internal The transport asks before each request. */
  async headers(request: HttpAuthRequest): Promise<Readonly<Record<string, string>>> {
    const session = this.#sessions.get(endpointKey(request.endpoint));
    if (
      session?.tokens !== undefined &&
      usable(session.tokens) === undefined &&
      session.tokens.refreshToken
    ) {
      await this.#serialized(() => this.#refreshQuietly(session));
    }
    const token = usable(session?.tokens);
    this.#sent.set(request, { token });
    if (token === undefined || request.url.origin !== request.endpoint.origin) return {};
    if (session?.tokens?.tokenType !== 'dpop') return { authorization: `Bearer ${token}` };
    // A DPoP-bound token without its key cannot be presented: the 401 gets a new one.
    if (session.dpop === undefined) return {};
    const { headers, presented } = await this.#dpop.present(session.dpop, token, request);
    this.#sent.set(request, presented);
    return headers;
  }

  /** @internal The transport reports a 401 or 403. */
  challenge(request: HttpAuthRequest, response: HttpAuthResponse): Promise<boolean> {
    return this.#serialized(async () => {
      const presented = this.#sent.get(request);
      const sent = presented?.token;
      // A resource server nonce to put in the proof: the token is fine.
      if (this.#dpop.wantsNonce(request.url, response, presented)) return true;
      // Another request renewed the token while this one was out: just send it again.
      if (usable(this.#sessions.get(endpointKey(request.endpoint))?.tokens) !== sent) return true;
      const challenge = oauthChallenge(response.headers.get('www-authenticate'));
      if (response.status === 403) {
        if (challenge?.params.error !== 'insufficient_scope') return false;
        return this.#reauthorize(request.endpoint, challenge, 'step-up', sent);
      }
      return this.#reauthorize(request.endpoint, challenge, 'unauthorized', sent);
    });
  }

  /** @internal A response that was not a challenge: the token works (and may bring a DPoP nonce). */
  observe(request: HttpAuthRequest, response: HttpAuthResponse): void {
    this.#dpop.observe(request.url, response.headers);
    const session = this.#sessions.get(endpointKey(request.endpoint));
    if (session !== undefined && response.status < 400) session.attempts = 0;
  }

  /**
   * Authorizes ahead of any MCP request (a CLI's `login`): asks the endpoint for its challenge,
   * then gets a token as a 401 would, ignoring stored tokens when `force` is set. Resolves with
   * the issuer and resource, or `undefined` when the server does not ask for authorization.
   */
  login(endpoint: string | URL, options: { force?: boolean } = {}): Promise<TokenKey | undefined> {
    const url = new URL(endpoint);
    return this.#serialized(async () => {
      const response = await this.#http.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover' }),
        signal: AbortSignal.timeout(this.#http.timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status !== 401) return undefined;
      const challenge = oauthChallenge(response.headers.get('www-authenticate'));
      await this.#reauthorize(url, challenge, options.force ? 'login' : 'unauthorized', undefined);
      return this.#sessions.get(endpointKey(url))?.key;
    });
  }

  /** Forgets the endpoint's tokens and registration here and in the store. */
  logout(endpoint: string | URL): Promise<TokenKey | undefined> {
    const url = new URL(endpoint);
    return this.#serialized(async () => {
      const session =
        this.#sessions.get(endpointKey(url)) ?? (await this.#discover(url, undefined));
      this.#sessions.delete(endpointKey(url));
      await this.#store.delete(session.key);
      return session.key;
    });
  }

  /** Runs tasks one at a time: one flow, refresh or discovery per provider at once. */
  #serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #reauthorize(
    endpoint: URL,
    challenge: AuthChallenge | undefined,
    reason: 'unauthorized' | 'step-up' | 'login',
    sent: string | undefined,
  ): Promise<boolean> {
    const session = await this.#discover(endpoint, challenge);
    const max = this.#options.maxAuthorizationAttempts ?? 3;
    if (session.attempts < max && reason === 'unauthorized' && (await this.#renew(session, sent)))
      return true;
    if (session.attempts >= max) {
      throw new AuthorizationError(
        reason === 'step-up' ? 'step-up' : 'authorization',
        reason === 'step-up'
          ? `${endpoint.origin}${endpoint.pathname} still lacks scope after ${max} authorizations (needs: ${challenge?.params.scope ?? 'unspecified'})`
          : `${endpoint.origin}${endpoint.pathname} kept answering 401 after ${max} authorizations`,
        { details: { issuer: session.key.issuer, resource: session.key.resource, attempts: max } },
      );
    }
    session.attempts++;
    await this.#obtain(session, this.#scopesFor(session, challenge, reason));
    return true;
  }

  /** A token from the store (another process got it) or a refresh; `false` when neither works. */
  async #renew(session: Session, sent: string | undefined): Promise<boolean> {
    const stored = await this.#store.get(session.key);
    const kept = stored?.tokens;
    if (
      kept !== undefined &&
      usable(kept) !== undefined &&
      kept.accessToken !== sent &&
      (await this.#adopt(session, stored))
    ) {
      return true;
    }
    // A refresh token from the store is bound to the store's DPoP key, if it has one.
    session.dpop ??= await restoreDpopKey(stored?.dpopKey);
    const refreshToken = kept?.refreshToken ?? session.tokens?.refreshToken;
    if (refreshToken === undefined) return false;
    // A refreshed token that is rejected again counts like a login: a 401 loop stays bounded.
    session.attempts++;
    return this.#refreshQuietly(session, refreshToken);
  }

  /** Refreshes; an authorization server that refuses (revoked, rotated) leaves no tokens. */
  async #refreshQuietly(
    session: Session,
    refreshToken = session.tokens?.refreshToken,
  ): Promise<boolean> {
    if (refreshToken === undefined) return false;
    try {
      await this.#withLock(session.key, async () => {
        const stored = await this.#store.get(session.key);
        if (
          stored?.tokens !== undefined &&
          usable(stored.tokens) !== undefined &&
          stored.tokens.accessToken !== session.tokens?.accessToken &&
          (await this.#adopt(session, stored))
        ) {
          return;
        }
        const { refresh, storedTokens } = await loadFlows();
        const context = await this.#grantContext(session, undefined);
        const response = await refresh(context, stored?.tokens?.refreshToken ?? refreshToken);
        session.tokens = {
          ...storedTokens(response),
          refreshToken: response.refresh_token ?? refreshToken,
        };
        await this.#save(session);
      });
      return true;
    } catch (error) {
      if (!(error instanceof AuthorizationError) || error.details?.oauthError === undefined)
        throw error;
      delete session.tokens;
      return false;
    }
  }

  /** The session for the endpoint as its metadata says now (a new one if the issuer moved). */
  async #discover(endpoint: URL, challenge: AuthChallenge | undefined): Promise<Session> {
    const { discoverResource, discoverAuthorizationServer, fallbackAuthorizationServer } =
      await loadFlows();
    const prm = await discoverResource(this.#http, endpoint, challenge);
    const resource = prm?.resource ?? canonicalResource(endpoint);
    const issuer = prm?.authorizationServers[0] ?? endpoint.origin;
    let as = this.#metadata.get(issuer) ?? (await discoverAuthorizationServer(this.#http, issuer));
    if (as === undefined) {
      if (prm !== undefined) {
        throw new AuthorizationError(
          'authorization-server-metadata',
          `${issuer} publishes no authorization server metadata`,
          {
            details: { issuer },
          },
        );
      }
      as = fallbackAuthorizationServer(endpoint);
    }
    this.#metadata.set(issuer, as);
    const key: TokenKey = { issuer: as.issuer, resource };
    const previous = this.#sessions.get(endpointKey(endpoint));
    if (previous !== undefined && keyString(previous.key) === keyString(key)) return previous;
    const session: Session = {
      key,
      as,
      scopesSupported: prm?.scopesSupported,
      requested: new Set(),
      attempts: previous?.attempts ?? 0,
    };
    this.#sessions.set(endpointKey(endpoint), session);
    return session;
  }

  /** Scope selection: the challenge's, else the resource's `scopes_supported`, with what was asked before. */
  #scopesFor(session: Session, challenge: AuthChallenge | undefined, reason: string): string[] {
    const challenged = challengeScopes(challenge);
    const base = this.#options.scope !== undefined ? splitScopes(this.#options.scope) : [];
    const wanted = new Set([...(reason === 'login' ? [] : session.requested), ...base]);
    for (const scope of challenged.length > 0
      ? challenged
      : base.length > 0
        ? []
        : (session.scopesSupported ?? [])) {
      wanted.add(scope);
    }
    const grant = this.#options.grant?.type ?? 'authorization_code';
    if (
      grant === 'authorization_code' &&
      this.#options.offlineAccess !== false &&
      session.as.scopes_supported?.includes('offline_access')
    ) {
      wanted.add('offline_access');
    }
    return [...wanted];
  }

  /** Gets tokens with the configured grant and keeps them. */
  async #obtain(session: Session, scopes: string[]): Promise<void> {
    const flows = await loadFlows();
    const grant = this.#options.grant ?? { type: 'authorization_code' };
    const handler = grant.type === 'authorization_code' ? this.#handler(session) : undefined;
    const redirectUri = handler === undefined ? undefined : await handler.redirectUri();
    const context = await this.#grantContext(session, redirectUri);
    let response: oauth.TokenEndpointResponse;
    if (grant.type === 'client_credentials')
      response = await flows.clientCredentials(context, scopes);
    else if (grant.type === 'jwt_bearer') {
      const assertion = await flows.step('token', 'Getting the JWT bearer assertion', async () =>
        grant.assertion(),
      );
      response = await flows.jwtBearer(context, assertion, scopes);
    } else if (grant.type === 'enterprise')
      response = await flows.enterpriseGrant(context, grant, scopes);
    else {
      response = await flows.authorizationCodeFlow(context, {
        handler: handler as AuthorizationHandler,
        redirectUri: redirectUri as string,
        scopes,
        timeoutMs: this.#options.authorizationTimeoutMs ?? 300_000,
      });
    }
    for (const scope of scopes) session.requested.add(scope);
    session.tokens = flows.storedTokens(response);
    await this.#save(session);
  }

  #handler(session: Session): AuthorizationHandler {
    const handler = this.#options.handler;
    if (handler !== undefined) return handler;
    throw new AuthorizationError(
      'interaction-required',
      `${session.key.resource} needs you to log in at ${session.key.issuer}, and there is no way to ask you here`,
      { details: { issuer: session.key.issuer, resource: session.key.resource } },
    );
  }

  async #grantContext(session: Session, redirectUri: string | undefined): Promise<GrantContext> {
    if (
      session.identity === undefined ||
      (redirectUri !== undefined && !fitsRedirect(session.identity, redirectUri))
    ) {
      const stored = await this.#store.get(session.key);
      const { resolveIdentity } = await loadFlows();
      session.identity = await resolveIdentity({
        http: this.#http,
        options: this.#options,
        as: session.as,
        kept: stored?.client,
        redirectUri,
      });
    }
    session.dpop = await this.#dpop.keyFor(session.as, session.dpop);
    return {
      http: this.#http,
      as: session.as,
      identity: session.identity,
      resource: session.key.resource,
      dpop: session.dpop?.handle,
    };
  }

  /** Takes stored tokens (another process got them); a DPoP-bound one only with its key. */
  async #adopt(session: Session, stored: StoredCredentials | undefined): Promise<boolean> {
    const tokens = stored?.tokens;
    if (tokens === undefined) return false;
    if (tokens.tokenType === 'dpop') {
      const key = await restoreDpopKey(stored?.dpopKey);
      if (key === undefined) return false;
      session.dpop = key;
    }
    session.tokens = tokens;
    return true;
  }

  async #save(session: Session): Promise<void> {
    const client = session.identity?.stored;
    const bound = session.tokens?.tokenType === 'dpop' ? session.dpop : undefined;
    await this.#store.set(session.key, {
      ...(session.tokens === undefined ? {} : { tokens: session.tokens }),
      // Only a dynamic registration is worth keeping: the others come from the options.
      ...(client?.source === 'dynamic' ? { client } : {}),
      // The key a DPoP-bound token needs, so that another process can present it.
      ...(bound === undefined ? {} : { dpopKey: await storeDpopKey(bound) }),
    });
  }

  #withLock<T>(key: TokenKey, task: () => Promise<T>): Promise<T> {
    return this.#store.withLock ? this.#store.withLock(key, task) : task();
  }
}

/** The access token to send, unless it is (about to be) expired. */
function usable(tokens: StoredTokens | undefined): string | undefined {
  if (tokens === undefined) return undefined;
  if (tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now())
    return undefined;
  return tokens.accessToken;
}

function fitsRedirect(identity: ClientIdentity, redirectUri: string): boolean {
  return (
    identity.stored.source !== 'dynamic' ||
    identity.stored.redirectUris?.includes(redirectUri) === true
  );
}

function endpointKey(endpoint: URL): string {
  return `${endpoint.origin}${endpoint.pathname}`;
}

/** RFC 8707 canonical URI of an endpoint with no metadata: no query, fragment or trailing slash. */
function canonicalResource(endpoint: URL): string {
  return `${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}`;
}
