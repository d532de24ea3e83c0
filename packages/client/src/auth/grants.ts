/**
 * Token requests, each through oauth4webapi with the RFC 8707 `resource`: the authorization
 * code exchange, refresh, client credentials and the RFC 7523 JWT bearer grant. A DPoP nonce
 * challenge (RFC 9449 §8) is answered once with the nonce the server gave.
 */
import * as oauth from 'oauth4webapi';
import { type ClientIdentity, identitySecrets } from './identity';
import { type OAuthHttp, redact, requestOptions, step } from './oauth-http';
import type { StoredTokens } from './types';

/** What every token request needs. */
export interface GrantContext {
  http: OAuthHttp;
  as: oauth.AuthorizationServer;
  identity: ClientIdentity;
  /** The canonical URI of the MCP server. */
  resource: string;
  dpop?: oauth.DPoPHandle | undefined;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Exchanges an authorization code (with its PKCE verifier) for tokens. */
export function exchangeCode(
  context: GrantContext,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
): Promise<oauth.TokenEndpointResponse> {
  const { as, identity } = context;
  const secrets = [callback.get('code') ?? undefined, verifier];
  return request(context, 'token', secrets, async (options) =>
    oauth.processAuthorizationCodeResponse(
      as,
      identity.client,
      await oauth.authorizationCodeGrantRequest(
        as,
        identity.client,
        identity.auth,
        callback,
        redirectUri,
        verifier,
        { ...options, additionalParameters: { resource: context.resource } },
      ),
    ),
  );
}

/** Uses a refresh token; the server may rotate it. */
export function refresh(
  context: GrantContext,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse> {
  const { as, identity } = context;
  return request(context, 'refresh', [refreshToken], async (options) =>
    oauth.processRefreshTokenResponse(
      as,
      identity.client,
      await oauth.refreshTokenGrantRequest(as, identity.client, identity.auth, refreshToken, {
        ...options,
        additionalParameters: { resource: context.resource },
      }),
    ),
  );
}

/** The client credentials grant (a program acting on its own behalf). */
export function clientCredentials(
  context: GrantContext,
  scopes: readonly string[],
): Promise<oauth.TokenEndpointResponse> {
  const { as, identity } = context;
  return request(context, 'token', [], async (options) =>
    oauth.processClientCredentialsResponse(
      as,
      identity.client,
      await oauth.clientCredentialsGrantRequest(
        as,
        identity.client,
        identity.auth,
        grantParameters(context, scopes),
        options,
      ),
    ),
  );
}

/** The RFC 7523 JWT bearer grant with `assertion` (e.g. a workload identity token). */
export function jwtBearer(
  context: GrantContext,
  assertion: string,
  scopes: readonly string[],
): Promise<oauth.TokenEndpointResponse> {
  const { as, identity } = context;
  const parameters = grantParameters(context, scopes);
  parameters.set('assertion', assertion);
  return request(context, 'token', [assertion], async (options) =>
    oauth.processGenericTokenEndpointResponse(
      as,
      identity.client,
      await oauth.genericTokenEndpointRequest(
        as,
        identity.client,
        identity.auth,
        JWT_BEARER,
        parameters,
        options,
      ),
    ),
  );
}

/** A token response as stored (`expiresAt` from `expires_in`, measured from `now`). */
export function storedTokens(
  response: oauth.TokenEndpointResponse,
  now = Date.now(),
): StoredTokens {
  return {
    accessToken: response.access_token,
    tokenType: response.token_type === 'dpop' ? 'dpop' : 'bearer',
    ...(response.refresh_token === undefined ? {} : { refreshToken: response.refresh_token }),
    ...(response.expires_in === undefined
      ? {}
      : { expiresAt: now + response.expires_in * 1000, obtainedAt: now }),
    ...(response.scope === undefined ? {} : { scope: response.scope }),
  };
}

function grantParameters(context: GrantContext, scopes: readonly string[]): URLSearchParams {
  const parameters = new URLSearchParams({ resource: context.resource });
  if (scopes.length > 0) parameters.set('scope', scopes.join(' '));
  return parameters;
}

type TokenOptions = ReturnType<typeof requestOptions> & { DPoP?: oauth.DPoPHandle };

/**
 * One token request, retried once when the server asks for a (new) DPoP nonce. Its failure
 * names neither the client's secret nor any of `secrets` (what the request carried).
 */
async function request<T>(
  context: GrantContext,
  name: 'token' | 'refresh',
  secrets: readonly (string | undefined)[],
  run: (options: TokenOptions) => Promise<T>,
): Promise<T> {
  const endpoint = context.as.token_endpoint;
  const options = (): TokenOptions => ({
    ...requestOptions(context.http, endpoint),
    ...(context.dpop ? { DPoP: context.dpop } : {}),
  });
  const what =
    name === 'refresh' ? `Refreshing the token at ${endpoint}` : `The token request to ${endpoint}`;
  const attempt = async () => {
    try {
      return await run(options());
    } catch (error) {
      if (context.dpop === undefined || !oauth.isDPoPNonceError(error)) throw error;
      return run(options());
    }
  };
  try {
    return await step(name, what, attempt, { issuer: context.as.issuer });
  } catch (error) {
    throw redact(error, [...identitySecrets(context.identity), ...secrets]);
  }
}
