/**
 * Bearer challenges (RFC 6750 §3, RFC 9728 §5.1) as MCP asks for them: a 401 names the metadata
 * document (and the scopes every request needs), a 403 `insufficient_scope` names every scope
 * the operation needs in one go, a 400 `invalid_request` answers malformed credentials.
 */

/** One refusal of a request. */
export interface Challenge {
  status: 400 | 401 | 403;
  /** RFC 6750 error code; none when the request simply carried no token. */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | undefined;
  /** Human-readable; must never contain the token. */
  description?: string | undefined;
  /** The scopes to ask for (a 403: all the operation needs). */
  scopes?: readonly string[] | undefined;
}

// `error_description` allows printable ASCII without `"` and `\` (RFC 6750 §3).
const UNSAFE_DESCRIPTION = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;

/** A quoted-string auth-param; every value written here is free of `"` and `\` (URL hrefs too). */
function param(name: string, value: string): string {
  return `${name}="${value}"`;
}

/** The `WWW-Authenticate` value of `challenge`. */
export function challengeHeader(challenge: Challenge, metadataUrl: string): string {
  const params: string[] = [];
  if (challenge.error !== undefined) params.push(param('error', challenge.error));
  const description = challenge.description?.replace(UNSAFE_DESCRIPTION, ' ');
  if (description) params.push(param('error_description', description));
  params.push(param('resource_metadata', metadataUrl));
  // Scope tokens exclude `"`, `\` and spaces, so they join and quote safely.
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) {
    params.push(param('scope', challenge.scopes.join(' ')));
  }
  return `Bearer ${params.join(', ')}`;
}

/**
 * The HTTP answer of `challenge`: its status, the `WWW-Authenticate` header (listed as exposed,
 * for hosts that add CORS) and the same facts as an OAuth error object, for clients that read
 * bodies.
 */
export function challengeResponse(challenge: Challenge, metadataUrl: string): Response {
  const body: Record<string, string> = {};
  if (challenge.error !== undefined) body.error = challenge.error;
  if (challenge.description !== undefined) body.error_description = challenge.description;
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) {
    body.scope = challenge.scopes.join(' ');
  }
  return new Response(JSON.stringify(body), {
    status: challenge.status,
    headers: {
      'Content-Type': 'application/json',
      'WWW-Authenticate': challengeHeader(challenge, metadataUrl),
      'Access-Control-Expose-Headers': 'WWW-Authenticate',
    },
  });
}
