/**
 * Who this client is at an authorization server, in the spec's order: pre-registered
 * credentials, a Client ID Metadata Document URL where the server supports them, a registration
 * kept from before, then Dynamic Client Registration (RFC 7591) as the fallback. Also how it
 * authenticates at the token endpoint, chosen from what the server supports.
 */
import { type CryptoKey, importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import { dpopAlgorithm } from './dpop';
import { AuthorizationError } from './errors';
import { isLoopback, type OAuthHttp, requestOptions, step } from './oauth-http';
import type { OAuthProviderOptions, StoredClient } from './types';

/** A client identity ready for oauth4webapi's calls. */
export interface ClientIdentity {
  client: oauth.Client;
  auth: oauth.ClientAuth;
  stored: StoredClient;
  /** The `private_key_jwt` assertion `auth` signed last, kept out of error messages. */
  lastAssertion?: () => string | undefined;
}

/** What choosing an identity needs. */
export interface IdentityContext {
  http: OAuthHttp;
  options: OAuthProviderOptions;
  as: oauth.AuthorizationServer;
  /** The registration kept for this issuer, if any. */
  kept: StoredClient | undefined;
  /** The redirect URI of the code flow (absent for grants without one). */
  redirectUri: string | undefined;
}

/** The client identity to use with `context.as`, registering one when needed. */
export async function resolveIdentity(context: IdentityContext): Promise<ClientIdentity> {
  const { options, as } = context;
  const pre = options.client;
  if (pre !== undefined) {
    if (pre.issuer !== undefined && pre.issuer !== as.issuer) {
      throw new AuthorizationError(
        'client-registration',
        `The pre-registered client is for ${pre.issuer}, but this server's authorization server is ${as.issuer}`,
        { details: { issuer: as.issuer, clientIssuer: pre.issuer } },
      );
    }
    const method =
      pre.tokenEndpointAuthMethod ?? chooseAuthMethod(as, pre.clientSecret, pre.privateKey);
    const stored: StoredClient = {
      clientId: pre.clientId,
      ...(pre.clientSecret === undefined ? {} : { clientSecret: pre.clientSecret }),
      tokenEndpointAuthMethod: method,
      source: 'pre-registered',
    };
    return identityOf(stored, as, pre.privateKey, pre.signingAlgorithm);
  }
  if (
    options.clientMetadataUrl !== undefined &&
    as.client_id_metadata_document_supported === true
  ) {
    const stored: StoredClient = {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: 'none',
      source: 'metadata-document',
    };
    return identityOf(stored, as);
  }
  const { kept, redirectUri } = context;
  if (
    kept?.source === 'dynamic' &&
    (redirectUri === undefined || kept.redirectUris?.includes(redirectUri))
  ) {
    return identityOf(kept, as);
  }
  return identityOf(await register(context), as);
}

/** RFC 7591 registration of a native (loopback) or web client. */
async function register(context: IdentityContext): Promise<StoredClient> {
  const { as, options, redirectUri, http } = context;
  if (as.registration_endpoint === undefined) {
    throw new AuthorizationError(
      'client-registration',
      `${as.issuer} supports neither dynamic registration nor client ID metadata documents: pass a pre-registered client id`,
      { details: { issuer: as.issuer } },
    );
  }
  const redirectUris = redirectUri === undefined ? [] : [redirectUri];
  const { client_name, application_type, ...extra } = options.clientMetadata ?? {};
  const metadata = {
    client_name: client_name ?? 'twofold',
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: chooseAuthMethod(as, 'would-be-issued', undefined, true),
    application_type:
      application_type ??
      (redirectUri === undefined || isLoopback(new URL(redirectUri)) ? 'native' : 'web'),
    // RFC 9449 §5.2: a client that will always use DPoP here says so.
    ...(options.dpop === true && dpopAlgorithm(as) !== undefined
      ? { dpop_bound_access_tokens: true }
      : {}),
    ...extra,
  };
  const registered = await step(
    'client-registration',
    `Registering with ${as.issuer}`,
    async () =>
      oauth.processDynamicClientRegistrationResponse(
        await lenientExpiry(
          await oauth.dynamicClientRegistrationRequest(
            as,
            metadata,
            requestOptions(http, as.registration_endpoint),
          ),
        ),
      ),
    { issuer: as.issuer },
  );
  const secret =
    typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
  const method =
    typeof registered.token_endpoint_auth_method === 'string'
      ? registered.token_endpoint_auth_method
      : chooseAuthMethod(as, secret, undefined);
  return {
    clientId: registered.client_id,
    ...(secret === undefined ? {} : { clientSecret: secret }),
    tokenEndpointAuthMethod: method,
    redirectUris,
    source: 'dynamic',
  };
}

/**
 * RFC 7591 requires `client_secret_expires_at` beside an issued secret, and oauth4webapi
 * insists; servers that omit it mean a secret that does not expire (the field's `0`).
 */
async function lenientExpiry(response: Response): Promise<Response> {
  if (!response.ok) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const record = body as Record<string, unknown> | undefined;
  if (typeof record?.client_secret !== 'string' || record.client_secret_expires_at !== undefined)
    return response;
  return new Response(JSON.stringify({ ...record, client_secret_expires_at: 0 }), {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The token endpoint authentication method: `private_key_jwt` with a key, a secret method with a
 * secret (basic before post), else `none`; always one the server lists (RFC 8414's default
 * list is `client_secret_basic`). `preferPublic` asks for `none` first (what a native client
 * registers as).
 */
function chooseAuthMethod(
  as: oauth.AuthorizationServer,
  secret: string | undefined,
  key: CryptoKey | string | undefined,
  preferPublic = false,
): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const wanted = [
    ...(preferPublic ? ['none'] : []),
    ...(key === undefined ? [] : ['private_key_jwt']),
    ...(secret === undefined ? [] : ['client_secret_basic', 'client_secret_post']),
    'none',
  ];
  return wanted.find((method) => supported.includes(method)) ?? supported[0] ?? 'none';
}

/**
 * `client_secret_basic` with the id and secret percent-encoded only where they must be
 * (RFC 6749 §2.3.1 form encoding leaves unreserved characters as they are). oauth4webapi also
 * encodes `-`, `.`, `_` and `~`, which servers that skip the decoding step then reject.
 */
export function basicAuth(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${basicCredentials(client.client_id, secret)}`);
  };
}

/** The `client_secret_basic` credentials: a secret too, as far as error messages go. */
export function basicCredentials(clientId: string, secret: string): string {
  return btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`);
}

/** What an identity sends that must not reach an error message. */
export function identitySecrets(identity: ClientIdentity): string[] {
  const { clientId, clientSecret } = identity.stored;
  const assertion = identity.lastAssertion?.();
  return [
    ...(clientSecret === undefined ? [] : [clientSecret, basicCredentials(clientId, clientSecret)]),
    ...(assertion === undefined ? [] : [assertion]),
  ];
}

async function identityOf(
  stored: StoredClient,
  as: oauth.AuthorizationServer,
  privateKey?: CryptoKey | string,
  signingAlgorithm?: string,
): Promise<ClientIdentity> {
  const method = stored.tokenEndpointAuthMethod ?? 'none';
  const client: oauth.Client = { client_id: stored.clientId, token_endpoint_auth_method: method };
  const missing = (what: string) =>
    new AuthorizationError(
      'client-registration',
      `Token endpoint authentication ${method} at ${as.issuer} needs a ${what}, and none was given`,
      { details: { issuer: as.issuer, method } },
    );
  switch (method) {
    case 'client_secret_basic':
    case 'client_secret_post': {
      if (stored.clientSecret === undefined) throw missing('client secret');
      const secret = stored.clientSecret;
      const auth =
        method === 'client_secret_basic' ? basicAuth(secret) : oauth.ClientSecretPost(secret);
      return { client, auth, stored };
    }
    case 'private_key_jwt': {
      if (privateKey === undefined) throw missing('private key');
      const key =
        typeof privateKey === 'string'
          ? await importSigningKey(privateKey, signingAlgorithm, as)
          : privateKey;
      // oauth4webapi signs the assertion with iss = sub = client_id and aud = the issuer
      // identifier (RFC 7523bis), a fresh jti and a short expiry.
      const sign = oauth.PrivateKeyJwt({ key });
      let last: string | undefined;
      const auth: oauth.ClientAuth = async (server, self, body, headers) => {
        await sign(server, self, body, headers);
        last = body.get('client_assertion') ?? undefined;
      };
      return { client, auth, stored, lastAssertion: () => last };
    }
    default:
      return { client, auth: oauth.None(), stored };
  }
}

/** Algorithms a PEM key is tried as when none is named, after the server's own list. */
const KEY_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'ES384', 'ES512', 'Ed25519'];

/**
 * A PKCS#8 PEM key for `private_key_jwt`: as `algorithm` when named, else as the first
 * algorithm it loads as (an EC or RSA key refuses the others). The key's text never reaches
 * an error message.
 */
async function importSigningKey(
  pem: string,
  algorithm: string | undefined,
  as: oauth.AuthorizationServer,
): Promise<CryptoKey> {
  const candidates =
    algorithm !== undefined
      ? [algorithm]
      : [
          ...new Set([
            ...(as.token_endpoint_auth_signing_alg_values_supported ?? []),
            ...KEY_ALGORITHMS,
          ]),
        ];
  for (const candidate of candidates) {
    try {
      return await importPKCS8(pem, candidate);
    } catch {
      // not this algorithm
    }
  }
  throw new AuthorizationError(
    'client-registration',
    algorithm !== undefined
      ? `The private key for private_key_jwt is not a PKCS#8 PEM key for ${algorithm}`
      : 'The private key for private_key_jwt is not a PKCS#8 PEM key this client can sign with',
    { details: { issuer: as.issuer, ...(algorithm === undefined ? {} : { algorithm }) } },
  );
}
