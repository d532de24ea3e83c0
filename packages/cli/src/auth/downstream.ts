/**
 * `twofold bridge --listen … --auth-issuer <url>`: the bridge's endpoint as an OAuth 2.1
 * resource server. Downstream clients need a JWT access token from that authorization server,
 * issued for the bridge's own URL (`--auth-resource` when it is reached under another name),
 * checked against the server's published keys (`--auth-jwks`, else its metadata's `jwks_uri`).
 */
import { type HttpAuthOptions, jwtVerifier } from '@twofold/server/experimental';
import { type CommandContext, listOption, stringOption } from '../cli/command';
import { CliError, EXIT, usageError } from '../cli/exit-codes';

const OPTIONS = ['auth-jwks', 'auth-scope', 'auth-resource'] as const;

/** The `auth` option of the HTTP bridge, or `undefined` when `--auth-issuer` is not given. */
export async function downstreamAuth(
  context: CommandContext,
  listening: boolean,
  timeoutMs: number,
): Promise<((url: URL) => HttpAuthOptions) | undefined> {
  const issuer = stringOption(context, 'auth-issuer');
  const given = OPTIONS.find((name) => context.values[name] !== undefined);
  if (issuer === undefined) {
    if (given !== undefined) throw usageError(`--${given} needs --auth-issuer`);
    return undefined;
  }
  if (!listening) {
    throw usageError(
      '--auth-issuer applies to --listen: on stdio, the host that started the bridge is its only client',
    );
  }
  const issuerUrl = httpUrl('--auth-issuer', issuer);
  const jwks = stringOption(context, 'auth-jwks');
  const jwksUrl =
    jwks === undefined ? await discoverJwks(issuerUrl, timeoutMs) : httpUrl('--auth-jwks', jwks);
  const resource = stringOption(context, 'auth-resource');
  if (resource !== undefined) httpUrl('--auth-resource', resource);
  const scopes = listOption(context, 'auth-scope');
  return (url) => {
    const audience = resource ?? url.href;
    return {
      verifyToken: jwtVerifier({ jwksUrl, issuer, audience }),
      resourceMetadata: {
        resource: audience,
        authorization_servers: [issuer],
        ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
      },
      ...(scopes.length > 0 ? { requiredScopes: scopes } : {}),
    };
  };
}

function httpUrl(option: string, value: string): URL {
  if (URL.canParse(value)) {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  }
  throw usageError(`${option} must be an http:// or https:// URL, not "${value}"`);
}

/** The `jwks_uri` of the issuer's metadata (RFC 8414, then OpenID Connect discovery). */
async function discoverJwks(issuer: URL, timeoutMs: number): Promise<URL> {
  const path = issuer.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
    new URL(`/.well-known/openid-configuration${path}`, issuer),
  ];
  let reason = 'no metadata document';
  for (const url of candidates) {
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        reason = `HTTP ${response.status} at ${url.href}`;
        continue;
      }
      const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: unknown };
      if (typeof jwksUri === 'string' && URL.canParse(jwksUri)) return new URL(jwksUri);
      reason = `${url.href} names no jwks_uri`;
    } catch (error) {
      const cause = (error as Error).cause as { code?: string } | undefined;
      reason = `${url.href}: ${cause?.code ?? (error as Error).message}`;
    }
  }
  throw new CliError(
    EXIT.unavailable,
    `could not find the key set of ${issuer.href} (${reason}); give it with --auth-jwks`,
  );
}
