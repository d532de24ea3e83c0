/** The public options of the OAuth client and the two things a host plugs in: a store and a handler. */
import type { CryptoKey, JWK } from 'jose';

/**
 * Where tokens and client registrations are kept: one record per authorization server issuer
 * and protected resource (the MCP endpoint's canonical URI).
 *
 * @experimental
 */
export interface TokenKey {
  readonly issuer: string;
  readonly resource: string;
}

/**
 * Tokens as stored. `expiresAt` is in epoch milliseconds.
 *
 * @experimental
 */
export interface StoredTokens {
  accessToken: string;
  /** `bearer`, or `dpop` for a sender-constrained token. */
  tokenType: 'bearer' | 'dpop';
  refreshToken?: string;
  expiresAt?: number;
  /** When it was received (epoch milliseconds): how early it is renewed depends on its lifetime. */
  obtainedAt?: number;
  /** The scopes granted, space-separated, when the server said. */
  scope?: string;
}

/**
 * A client identity at one authorization server: registered dynamically, a Client ID Metadata
 * Document URL, or pre-registered.
 *
 * @experimental
 */
export interface StoredClient {
  clientId: string;
  clientSecret?: string;
  /** `none`, `client_secret_basic`, `client_secret_post` or `private_key_jwt`. */
  tokenEndpointAuthMethod?: string;
  /** The redirect URIs it was registered with (dynamic registration only). */
  redirectUris?: string[];
  source: 'dynamic' | 'metadata-document' | 'pre-registered';
}

/**
 * Everything kept for one {@link TokenKey}.
 *
 * @experimental
 */
export interface StoredCredentials {
  tokens?: StoredTokens;
  client?: StoredClient;
  /** The DPoP key pair the tokens are bound to, as JWKs. */
  dpopKey?: { publicJwk: JWK; privateJwk: JWK };
}

/**
 * A store of credentials. The default keeps them in memory; the CLI keeps them in files with a
 * lock, so that two processes do not refresh one token at once.
 *
 * @experimental
 */
export interface TokenStore {
  get(key: TokenKey): Promise<StoredCredentials | undefined>;
  set(key: TokenKey, value: StoredCredentials): Promise<void>;
  delete(key: TokenKey): Promise<void>;
  /**
   * Runs `task` while no other holder (process) runs one for `key`: a refresh re-reads the store
   * inside it and finds a token another process just got. Optional: without it, a provider
   * still refreshes once at a time within its own process.
   */
  withLock?<T>(key: TokenKey, task: () => Promise<T>): Promise<T>;
}

/**
 * What an {@link AuthorizationHandler} is asked to do: send a person to `url` and bring back
 * where the authorization server redirected them.
 *
 * @experimental
 */
export interface AuthorizationRequest {
  /** The authorization URL (code flow, PKCE, `state`, `resource`). */
  readonly url: URL;
  /** The redirect URI in it. */
  readonly redirectUri: string;
  /** The authorization server's issuer and the resource the token is for, to show the user. */
  readonly issuer: string;
  readonly resource: string;
  /** Aborted when the flow's time is up. */
  readonly signal: AbortSignal;
}

/**
 * The user-facing half of the authorization code flow. A CLI listens on a loopback port and
 * opens a browser; a desktop app opens a window; a test follows the redirects itself.
 *
 * @experimental
 */
export interface AuthorizationHandler {
  /**
   * The redirect URI to register and to send (e.g. a loopback listener's URL). Called before
   * registration and before each authorization.
   */
  redirectUri(): string | Promise<string>;
  /** Resolves with the full URL the authorization server redirected to (`code`, `state`, `iss`). */
  authorize(request: AuthorizationRequest): Promise<URL | string>;
}

/**
 * A client registered ahead of time with the authorization server. When `issuer` is given the
 * credentials are used only with that authorization server.
 *
 * @experimental
 */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** A private key for `private_key_jwt` (a `CryptoKey`, or a PKCS#8 PEM string). */
  privateKey?: CryptoKey | string;
  /**
   * JWS algorithm of a PEM `privateKey` (a `CryptoKey` carries its own). Default: the first
   * the key loads as, trying the server's `token_endpoint_auth_signing_alg_values_supported`,
   * then RS256, ES256, PS256, ES384, ES512 and Ed25519.
   */
  signingAlgorithm?: string;
  /** Default: chosen from what the server supports and what is given here. */
  tokenEndpointAuthMethod?:
    | 'none'
    | 'client_secret_basic'
    | 'client_secret_post'
    | 'private_key_jwt';
  issuer?: string;
}

/**
 * Which grant gets tokens: the authorization code flow for a person (the default), or one a
 * program uses on its own behalf.
 *
 * @experimental
 */
export type OAuthGrant =
  | { type: 'authorization_code' }
  | { type: 'client_credentials' }
  /**
   * RFC 7523 JWT bearer grant, e.g. a workload identity token. `assertion` is asked for each
   * time a token is needed (a workload's token rotates); a rejected one is not retried.
   */
  | { type: 'jwt_bearer'; assertion: () => string | Promise<string> }
  /**
   * Enterprise-managed authorization (the Identity Assertion JWT Authorization Grant): the
   * person's ID token from single sign-on is exchanged at the enterprise identity provider
   * (RFC 8693) for an ID-JAG naming this server's authorization server and resource, which is
   * then redeemed there with the JWT bearer grant (RFC 7523). No browser is involved. `client`
   * holds this client's credentials at the MCP authorization server.
   */
  | {
      type: 'enterprise';
      idp: EnterpriseIdentityProvider;
      idToken: () => string | Promise<string>;
    };

/**
 * The enterprise identity provider of an `enterprise` grant: where the ID token is exchanged
 * for an ID-JAG, and who this client is there.
 *
 * @experimental
 */
export interface EnterpriseIdentityProvider {
  /** The identity provider's issuer identifier (the `iss` of its ID tokens). */
  issuer: string;
  /** Its token endpoint. Default: from its metadata (RFC 8414 / OpenID Connect discovery). */
  tokenEndpoint?: string;
  /** This client's id at the identity provider. */
  clientId: string;
  /** This client's secret there, sent with `client_secret_basic`; none for a public client. */
  clientSecret?: string;
}

/**
 * Options of `OAuthProvider`.
 *
 * @experimental
 */
export interface OAuthProviderOptions {
  /** Default: the authorization code flow, which needs `handler`. */
  grant?: OAuthGrant;
  /** Sends the person to the authorization server; without it, a needed login fails with `interaction-required`. */
  handler?: AuthorizationHandler;
  /** Default: an in-memory store. */
  store?: TokenStore;
  /** Credentials registered ahead of time (used first). */
  client?: PreRegisteredClient;
  /** A Client ID Metadata Document URL (https, with a path), used where the server supports them. */
  clientMetadataUrl?: string;
  /** Dynamic registration metadata: `client_name` and what else to register. */
  clientMetadata?: {
    client_name?: string;
    application_type?: 'native' | 'web';
    [field: string]: unknown;
  };
  /** Scopes to ask for instead of the server's challenge or `scopes_supported`. */
  scope?: string;
  /** Ask for a refresh token (`offline_access` where the server supports it). Default true. */
  offlineAccess?: boolean;
  /**
   * Sender-constrained tokens (RFC 9449) where the authorization server advertises
   * `dpop_signing_alg_values_supported` (ES256 when listed, else another asymmetric algorithm):
   * token requests and MCP requests carry DPoP proofs, and resource server nonces are honoured.
   * The key pair is kept in the store beside the tokens bound to it. Default false.
   */
  dpop?: boolean;
  /** Authorization flows in a row without a successful response before giving up. Default 3. */
  maxAuthorizationAttempts?: number;
  /** Each metadata, registration and token request, in milliseconds. Default 30000. */
  requestTimeoutMs?: number;
  /** How long the handler may take (a person logging in), in milliseconds. Default 300000. */
  authorizationTimeoutMs?: number;
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch;
}
