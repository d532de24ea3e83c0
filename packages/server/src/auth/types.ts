/**
 * The resource-server side of MCP authorization, as types: what a verified token grants, the
 * verification hook and its typed failure, the Protected Resource Metadata document (RFC 9728)
 * and the HTTP handler's `auth` option.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/**
 * What a verified access token grants, as handlers see it in `context.auth`.
 *
 * The token itself is deliberately absent (`token?: never`): an MCP server must not pass the
 * token it received on to anything else, and a handler that never sees it cannot. A handler that
 * calls another API gets a token of its own for it.
 *
 * @experimental
 */
export interface AuthInfo {
  /** Never set: the raw token is not kept (see above). */
  readonly token?: never;
  /** Who the token acts for (`sub`). */
  readonly subject?: string | undefined;
  /** The OAuth client it was issued to (`client_id`, else `azp`). */
  readonly clientId?: string | undefined;
  /** The scopes it grants. */
  readonly scopes: readonly string[];
  /** When it expires, in seconds since the epoch (`exp`); the handler refuses it from then on. */
  readonly expiresAt?: number | undefined;
  /** The resource (audience) it was issued for, as the verifier matched it. */
  readonly resource?: string | undefined;
  /** Anything else the verifier wants handlers to see (the JWT verifier puts `claims` here). */
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Checks a bearer token and says what it grants; it must check that the token was issued for
 * this server (its audience). Throw {@link InvalidTokenError} (or any
 * `LocalError` coded `UNAUTHORIZED`) when the token is malformed, expired, revoked, badly
 * signed or issued for another resource: the client gets a 401 `invalid_token` challenge. Any
 * other failure (the key set cannot be fetched) is the server's: a 500, reported to `onerror`.
 * Never put the token in an error message.
 *
 * @experimental
 */
export type TokenVerifier = (token: string, request: Request) => Promise<AuthInfo>;

/**
 * The token is not acceptable: the client gets 401 with `error="invalid_token"`. The message
 * becomes the challenge's `error_description`, so it must not contain the token.
 *
 * @example
 * ```ts
 * const verifyToken: TokenVerifier = async (token) => {
 *   const grant = await introspect(token);
 *   if (!grant.active) throw new InvalidTokenError('The access token is not active');
 *   return { subject: grant.sub, scopes: grant.scope.split(' ') };
 * };
 * ```
 * @experimental
 */
export class InvalidTokenError extends LocalError {
  override readonly name = 'InvalidTokenError';

  constructor(message = 'The access token is not valid') {
    super(LocalErrorCode.Unauthorized, message);
  }
}

/** Whether `error` says the token is not acceptable (rather than that verifying it failed). */
export function isInvalidToken(error: unknown): error is LocalError {
  return error instanceof LocalError && error.code === LocalErrorCode.Unauthorized;
}

/**
 * The OAuth 2.0 Protected Resource Metadata document (RFC 9728) of an MCP endpoint, with the
 * spec's field names. MCP requires `resource` and at least one authorization server.
 *
 * @experimental
 */
export interface ProtectedResourceMetadata {
  /**
   * The endpoint's canonical URI (RFC 8707), e.g. `https://mcp.example.com/mcp`: tokens must be
   * issued for it, and its path places the document at
   * `/.well-known/oauth-protected-resource<path>`.
   */
  resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it. */
  authorization_servers: readonly string[];
  /** The scopes basic use needs (a client asks for these when a challenge names none). */
  scopes_supported?: readonly string[];
  /** How tokens may be sent. Default `["header"]`, the only way MCP allows. */
  bearer_methods_supported?: readonly string[];
  /** A human-readable name of the resource. */
  resource_name?: string;
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
  jwks_uri?: string;
  resource_signing_alg_values_supported?: readonly string[];
  /** Any other registered or extension parameter, published as given. */
  readonly [parameter: string]: unknown;
}

/**
 * The `auth` option of `createServerHttpHandler`: the endpoint becomes an OAuth 2.1 resource
 * server. Every request needs a valid bearer token; the metadata document is served, without
 * one, at its well-known path.
 *
 * @experimental
 */
export interface HttpAuthOptions {
  /** Verifies each request's bearer token (see {@link TokenVerifier}, or use `jwtVerifier`). */
  verifyToken: TokenVerifier;
  /** The Protected Resource Metadata document; its URL goes into every challenge. */
  resourceMetadata: ProtectedResourceMetadata;
  /**
   * Scopes every request needs, named in every 401 challenge too. Tools, resources, templates
   * and prompts may add their own `requiredScopes`.
   */
  requiredScopes?: readonly string[];
  /**
   * Whether the granted scopes cover `required`, for scope hierarchies where a broader scope
   * implies narrower ones (`files` covering `files:read`, say). Default: `required` is granted
   * as is.
   */
  scopeSatisfied?: (granted: readonly string[], required: string) => boolean;
}
