/**
 * The authorization code flow with PKCE S256: the authorization URL (with `state`, `resource`
 * and the chosen scopes), the person's round trip through the handler, the redirect checked
 * (RFC 9207 `iss`, `state`, an error response) before the code goes anywhere, then the code
 * exchanged for tokens.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './errors';
import { exchangeCode, type GrantContext } from './grants';
import { explain } from './oauth-http';
import type { AuthorizationHandler } from './types';

/** What one run of the flow needs besides the token request context. */
export interface CodeFlowRequest {
  handler: AuthorizationHandler;
  redirectUri: string;
  scopes: readonly string[];
  /** How long the handler may take. */
  timeoutMs: number;
}

/** Runs the flow once; resolves with the token response. */
export async function authorizationCodeFlow(
  context: GrantContext,
  flow: CodeFlowRequest,
): Promise<oauth.TokenEndpointResponse> {
  const { as, identity } = context;
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new AuthorizationError(
      'authorization-server-metadata',
      `${as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported); refusing to authorize without it`,
      { details: { issuer: as.issuer } },
    );
  }
  if (as.authorization_endpoint === undefined) {
    throw new AuthorizationError(
      'authorization-server-metadata',
      `${as.issuer} names no authorization endpoint`,
      {
        details: { issuer: as.issuer },
      },
    );
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', identity.client.client_id);
  query.set('redirect_uri', flow.redirectUri);
  query.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  query.set('code_challenge_method', 'S256');
  query.set('state', state);
  query.set('resource', context.resource);
  if (flow.scopes.length > 0) query.set('scope', flow.scopes.join(' '));
  // RFC 9449 §10: bind the code to the DPoP key its exchange will prove.
  if (context.dpop !== undefined) query.set('dpop_jkt', await context.dpop.calculateThumbprint());

  const landed = await runHandler(flow, url, as.issuer, context.resource);
  const callback = checkRedirect(context, landed, flow.redirectUri, state);
  return exchangeCode(context, callback, flow.redirectUri, verifier);
}

/** The handler's round trip, bounded by `timeoutMs` even when it ignores its signal. */
async function runHandler(
  flow: CodeFlowRequest,
  url: URL,
  issuer: string,
  resource: string,
): Promise<URL> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new AuthorizationError(
        'authorization',
        `No authorization arrived within ${flow.timeoutMs} ms`,
        {
          details: { issuer, timeoutMs: flow.timeoutMs },
        },
      );
      controller.abort(error);
      reject(error);
    }, flow.timeoutMs);
  });
  try {
    const landed = await Promise.race([
      flow.handler.authorize({
        url,
        redirectUri: flow.redirectUri,
        issuer,
        resource,
        signal: controller.signal,
      }),
      timedOut,
    ]);
    return new URL(landed);
  } catch (error) {
    throw explain('authorization', `Authorizing at ${issuer}`, error, { issuer });
  } finally {
    clearTimeout(timer);
  }
}

/** The redirect's parameters once it proved to be the answer to this request. */
function checkRedirect(
  context: GrantContext,
  landed: URL,
  redirectUri: string,
  state: string,
): URLSearchParams {
  const expected = new URL(redirectUri);
  const issuer = context.as.issuer;
  if (landed.origin !== expected.origin || landed.pathname !== expected.pathname) {
    throw new AuthorizationError(
      'redirect',
      `The authorization ended somewhere other than the redirect URI`,
      {
        details: { issuer, redirectUri },
      },
    );
  }
  try {
    return oauth.validateAuthResponse(context.as, context.identity.client, landed, state);
  } catch (error) {
    throw explain('redirect', `The authorization response from ${issuer}`, error, { issuer });
  }
}
