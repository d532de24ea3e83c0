/**
 * Enterprise-managed authorization (the Identity Assertion JWT Authorization Grant, "ID-JAG"):
 * the person's ID token is exchanged at the enterprise identity provider (RFC 8693 token
 * exchange) for an ID-JAG whose audience is the MCP server's authorization server and whose
 * resource is the MCP server; the ID-JAG is then redeemed there with the RFC 7523 JWT bearer
 * grant, authenticated as this client. The identity provider decides by policy; no browser is
 * involved at the MCP authorization server.
 */
import * as oauth from 'oauth4webapi';
import { discoverAuthorizationServer } from './discovery';
import { AuthorizationError } from './errors';
import { type GrantContext, jwtBearer } from './grants';
import { basicAuth, basicCredentials } from './identity';
import { type OAuthHttp, redact, requestOptions, step } from './oauth-http';
import type { EnterpriseIdentityProvider, OAuthGrant } from './types';

/** The `enterprise` member of {@link OAuthGrant}. */
export type EnterpriseGrant = Extract<OAuthGrant, { type: 'enterprise' }>;

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/** Gets an ID-JAG from the identity provider, then redeems it for an access token. */
export async function enterpriseGrant(
  context: GrantContext,
  grant: EnterpriseGrant,
  scopes: readonly string[],
): Promise<oauth.TokenEndpointResponse> {
  const idJag = await requestIdJag(context.http, grant, {
    audience: context.as.issuer,
    resource: context.resource,
    scopes,
  });
  return jwtBearer(context, idJag, scopes);
}

/** What the ID-JAG is asked for. */
export interface IdJagRequest {
  /** The issuer of the authorization server that will redeem it. */
  audience: string;
  /** The MCP server's canonical URI. */
  resource: string;
  scopes: readonly string[];
}

/** The RFC 8693 exchange of the ID token for an ID-JAG at the identity provider. */
export async function requestIdJag(
  http: OAuthHttp,
  grant: EnterpriseGrant,
  wanted: IdJagRequest,
): Promise<string> {
  const { idp } = grant;
  const as = await identityProvider(http, idp);
  const what = `The token exchange at ${as.token_endpoint}`;
  let idToken: string | undefined;
  try {
    return await step(
      'token-exchange',
      what,
      async () => {
        idToken = await grant.idToken();
        const parameters = new URLSearchParams({
          requested_token_type: ID_JAG,
          subject_token: idToken,
          subject_token_type: ID_TOKEN,
          audience: wanted.audience,
          resource: wanted.resource,
        });
        if (wanted.scopes.length > 0) parameters.set('scope', wanted.scopes.join(' '));
        const client: oauth.Client = {
          client_id: idp.clientId,
          token_endpoint_auth_method:
            idp.clientSecret === undefined ? 'none' : 'client_secret_basic',
        };
        const auth = idp.clientSecret === undefined ? oauth.None() : basicAuth(idp.clientSecret);
        const response = await oauth.processGenericTokenEndpointResponse(
          as,
          client,
          await oauth.genericTokenEndpointRequest(
            as,
            client,
            auth,
            TOKEN_EXCHANGE,
            parameters,
            requestOptions(http, as.token_endpoint),
          ),
          // RFC 8693 §2.2.1: an issued token that is not an access token has type N_A.
          { recognizedTokenTypes: { n_a: () => undefined } },
        );
        if (response.issued_token_type !== ID_JAG) {
          throw new AuthorizationError(
            'token-exchange',
            `${what} issued ${String(response.issued_token_type ?? 'a token of no stated type')}, not an ID-JAG`,
            { details: { issuer: idp.issuer } },
          );
        }
        return response.access_token;
      },
      { issuer: idp.issuer },
    );
  } catch (error) {
    const secrets =
      idp.clientSecret === undefined
        ? []
        : [idp.clientSecret, basicCredentials(idp.clientId, idp.clientSecret)];
    throw redact(error, [idToken, ...secrets]);
  }
}

/** The identity provider as oauth4webapi sees it: its token endpoint, given or discovered. */
async function identityProvider(
  http: OAuthHttp,
  idp: EnterpriseIdentityProvider,
): Promise<oauth.AuthorizationServer & { token_endpoint: string }> {
  if (idp.tokenEndpoint !== undefined) {
    return { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint };
  }
  const metadata = await discoverAuthorizationServer(http, idp.issuer);
  const endpoint = metadata?.token_endpoint;
  if (endpoint === undefined) {
    throw new AuthorizationError(
      'token-exchange',
      `The identity provider ${idp.issuer} publishes no token endpoint in its metadata`,
      { details: { issuer: idp.issuer } },
    );
  }
  return { ...metadata, token_endpoint: endpoint } as oauth.AuthorizationServer & {
    token_endpoint: string;
  };
}
