/**
 * `jwtVerifier`: JWT access tokens checked against an authorization server's published keys
 * (JWKS), with `jose`. The key set is fetched on first use and cached; a token signed with a
 * key id the cache lacks triggers a refetch (key rotation), at most once per cooldown. `jose`
 * uses WebCrypto and fetch only, so this runs on every runtime; it loads on the first
 * verification, so servers without it never load it.
 */
import type { JWTPayload } from 'jose';
import { type AuthInfo, InvalidTokenError, type TokenVerifier } from './types';

/**
 * Options of {@link jwtVerifier}.
 *
 * @experimental
 */
export interface JwtVerifierOptions {
  /** The authorization server's JWKS URL (its metadata's `jwks_uri`). */
  jwksUrl: string | URL;
  /** The accepted `iss` value(s): the authorization server's issuer identifier. */
  issuer: string | readonly string[];
  /**
   * The accepted `aud` value(s): this server's canonical resource URI (RFC 8707), the
   * metadata's `resource`. A token for any other audience is refused.
   */
  audience: string | readonly string[];
  /** Accepted signing algorithms. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA, Ed25519). */
  algorithms?: readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds, for clock skew. Default 0. */
  clockToleranceSec?: number;
  /** How long a fetched key set is used before it is fetched again. Default 10 minutes. */
  jwksCacheMaxAgeMs?: number;
  /** The least time between two fetches caused by unknown key ids. Default 30 s. */
  jwksCooldownMs?: number;
  /** How long a key-set fetch may take. Default 5 s. */
  jwksTimeoutMs?: number;
}

const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

type Jose = typeof import('jose');

let joseModule: Promise<Jose> | undefined;
const loadJose = () => {
  joseModule ??= import('jose');
  return joseModule;
};

function list(what: string, value: string | readonly string[]): string[] {
  const values = typeof value === 'string' ? [value] : [...(value ?? [])];
  if (values.length === 0 || !values.every((item) => typeof item === 'string' && item !== '')) {
    throw new TypeError(`jwtVerifier: ${what} must be a non-empty string or list of strings`);
  }
  return values;
}

/** `{ [name]: value }`, or nothing when the value is not set (jose then uses its default). */
function optional(
  name: string,
  value: number | undefined,
  map: (value: number) => number = (same) => same,
): Record<string, number> {
  return value === undefined ? {} : { [name]: map(value) };
}

function duration(what: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`jwtVerifier: ${what} must be a non-negative number`);
  }
  return value;
}

/**
 * A {@link TokenVerifier} for JWT access tokens (RFC 9068 style): the signature against the
 * JWKS, then `iss`, `aud` (this resource), `exp` (required) and `nbf`. What the token grants
 * becomes an `AuthInfo`: `scope` (space-separated) or `scp` as `scopes`, `sub` as `subject`,
 * `client_id` (else `azp`) as `clientId`, `exp` as `expiresAt`, the audience it matched as
 * `resource`, and every claim under `extra.claims`. A token that fails any check throws
 * `InvalidTokenError` with a description that never contains the token; a key set that cannot
 * be fetched throws a plain `Error` (the server's fault, answered 500).
 *
 * @example
 * ```ts
 * const handler = createServerHttpHandler(server, {
 *   auth: {
 *     verifyToken: jwtVerifier({
 *       jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 *       issuer: 'https://auth.example.com',
 *       audience: 'https://mcp.example.com/mcp',
 *     }),
 *     resourceMetadata: {
 *       resource: 'https://mcp.example.com/mcp',
 *       authorization_servers: ['https://auth.example.com'],
 *     },
 *   },
 * });
 * ```
 * @experimental
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const jwksUrl = new URL(String(options.jwksUrl));
  const issuer = list('issuer', options.issuer);
  const audience = list('audience', options.audience);
  const algorithms =
    options.algorithms === undefined ? [...ASYMMETRIC] : list('algorithms', options.algorithms);
  const clockTolerance = duration('clockToleranceSec', options.clockToleranceSec) ?? 0;
  const remote = {
    ...optional('cacheMaxAge', duration('jwksCacheMaxAgeMs', options.jwksCacheMaxAgeMs)),
    ...optional('cooldownDuration', duration('jwksCooldownMs', options.jwksCooldownMs)),
    ...optional('timeoutDuration', duration('jwksTimeoutMs', options.jwksTimeoutMs), Math.round),
  };
  // One key set per verifier, created on first use: nothing is fetched at construction.
  let keys: ReturnType<Jose['createRemoteJWKSet']> | undefined;

  return async (token) => {
    const jose = await loadJose();
    keys ??= jose.createRemoteJWKSet(jwksUrl, remote);
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms,
        clockTolerance,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw verificationError(error, jose, jwksUrl);
    }
    return authInfoOf(payload, audience);
  };
}

/** What the claims grant. */
function authInfoOf(payload: JWTPayload, audience: readonly string[]): AuthInfo {
  const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  const clientId = payload.client_id ?? payload.azp;
  return {
    subject: payload.sub,
    clientId: typeof clientId === 'string' ? clientId : undefined,
    scopes: scopesOf(payload),
    expiresAt: payload.exp,
    resource: audience.find((value) => aud.includes(value)),
    extra: { claims: payload },
  };
}

/** `scope` (RFC 9068, space-separated), else `scp` (a list or a string, as some servers send). */
function scopesOf(payload: JWTPayload): string[] {
  const value = payload.scope ?? payload.scp;
  const items = typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : [];
  return items.filter((item): item is string => typeof item === 'string' && item !== '');
}

/** The client's `InvalidTokenError` for a bad token, or the server's failure to fetch keys. */
function verificationError(error: unknown, jose: Jose, jwksUrl: URL): Error {
  const { errors } = jose;
  if (error instanceof errors.JWTExpired)
    return new InvalidTokenError('The access token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new InvalidTokenError(claimMessage(error.claim));
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new InvalidTokenError('The access token is signed with a key this server does not know');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new InvalidTokenError('The access token signature does not verify');
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new InvalidTokenError(
      'The access token is signed with an algorithm this server refuses',
    );
  }
  const malformed = [
    errors.JWSInvalid,
    errors.JWTInvalid,
    errors.JOSENotSupported,
    errors.JWKInvalid,
    errors.JWKSMultipleMatchingKeys,
  ];
  if (malformed.some((kind) => error instanceof kind)) {
    return new InvalidTokenError('The access token is not a valid signed JWT');
  }
  // The key set could not be had (timeout, network, not JSON, not 200): not the token's fault.
  return new Error(`The key set at ${jwksUrl.href} could not be fetched`, { cause: error });
}

function claimMessage(claim: string): string {
  switch (claim) {
    case 'aud':
      return 'The access token was issued for another resource';
    case 'iss':
      return 'The access token comes from an issuer this server does not trust';
    case 'nbf':
      return 'The access token is not valid yet';
    case 'exp':
      return 'The access token has no expiry';
    default:
      return `The access token has an unacceptable "${claim.replace(/[^\w-]/g, '')}" claim`;
  }
}
