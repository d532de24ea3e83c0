/**
 * The HTTP handler's `auth` option as the transport core's access control: every request's
 * bearer token is verified before its body is read (401), the endpoint's scopes are checked on
 * every request and each item's on the message that names it (403), and the verified grant rides
 * along to the handlers. The token itself goes no further than `verifyToken`.
 */
import { isJsonRpcRequest, type JsonRpcMessage } from '@twofold/protocol/experimental';
import type { HttpAccessControl, HttpGrant } from '@twofold/transports/http-server';
import type { Operations } from '../operations/types';
import { checkScopes } from '../registry/checks';
import { type Challenge, challengeResponse } from './challenge';
import { type ResolvedMetadata, resolveMetadata, serveMetadata } from './metadata';
import { scopesNeeded } from './scopes';
import { type AuthInfo, type HttpAuthOptions, isInvalidToken } from './types';

/** The `auth` option, resolved for one handler. */
export interface ResourceServer {
  readonly access: HttpAccessControl;
  readonly metadata: ResolvedMetadata;
  /** Answers a request for the metadata document; `undefined` for any other request. */
  serveMetadata(request: Request): Response | undefined;
}

// RFC 6750 b64token, the only credential syntax of the Bearer scheme.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCHEME = /^Bearer(?: |$)/i;

type Credential = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/** The bearer token of a request; another scheme counts as none (the challenge names Bearer). */
function credentialOf(request: Request): Credential {
  const header = request.headers.get('authorization');
  if (header === null || !SCHEME.test(header.trim())) return { kind: 'none' };
  const match = BEARER.exec(header.trim());
  return match?.[1] === undefined ? { kind: 'malformed' } : { kind: 'token', token: match[1] };
}

const exactly = (granted: readonly string[], required: string) => granted.includes(required);

/**
 * Checks the `auth` option (throwing a `TypeError`) and builds the access control of `server`
 * (a served server: only its operations matter here, read at each request).
 */
export function createResourceServer(
  server: { readonly operations: Operations },
  options: HttpAuthOptions,
): ResourceServer {
  if (typeof options?.verifyToken !== 'function') {
    throw new TypeError('auth.verifyToken must be a function');
  }
  const metadata = resolveMetadata(options.resourceMetadata);
  const endpointScopes = checkScopes('auth', options.requiredScopes);
  const satisfied = options.scopeSatisfied ?? exactly;
  const refuse = (challenge: Challenge) => challengeResponse(challenge, metadata.url);
  const missing = (auth: AuthInfo, scopes: readonly string[]) =>
    scopes.some((scope) => !satisfied(auth.scopes, scope));

  const invalid = (description: string) =>
    refuse({ status: 401, error: 'invalid_token', description, scopes: endpointScopes });

  const authenticate = async (request: Request): Promise<Response | HttpGrant> => {
    const credential = credentialOf(request);
    if (credential.kind === 'none') return refuse({ status: 401, scopes: endpointScopes });
    if (credential.kind === 'malformed') {
      const description = 'The Authorization header is not a valid Bearer credential';
      return refuse({ status: 400, error: 'invalid_request', description });
    }
    let auth: AuthInfo;
    try {
      auth = checked(await options.verifyToken(credential.token, request));
    } catch (error) {
      if (!isInvalidToken(error)) throw error;
      // A verifier's message could echo the token; it never reaches the client then.
      const text = error.message.includes(credential.token) ? undefined : error.message;
      return invalid(text ?? 'The access token is not valid');
    }
    // The audience is the verifier's to check (it may be an API identifier, not the URL); the
    // expiry is checked here too, so a verifier that only looks tokens up cannot miss it.
    if (auth.expiresAt !== undefined && auth.expiresAt * 1000 <= Date.now()) {
      return invalid('The access token has expired');
    }
    if (missing(auth, endpointScopes)) {
      return refuse({
        status: 403,
        error: 'insufficient_scope',
        description: 'The access token lacks a scope this endpoint requires',
        scopes: endpointScopes,
      });
    }
    return { auth, owner: ownerOf(auth) };
  };

  const authorize = (message: JsonRpcMessage, grant: HttpGrant): Response | undefined => {
    if (!isJsonRpcRequest(message)) return undefined;
    const needed = scopesNeeded(server.operations, message, endpointScopes);
    if (needed === endpointScopes) return undefined;
    const auth = grant.auth as AuthInfo;
    if (!missing(auth, needed)) return undefined;
    // Every scope the operation needs, in one challenge, so one step-up is enough.
    return refuse({
      status: 403,
      error: 'insufficient_scope',
      description: 'The access token lacks a scope this request requires',
      scopes: needed,
    });
  };

  return {
    access: { authenticate, authorize },
    metadata,
    serveMetadata: (request) => serveMetadata(request, metadata),
  };
}

/** The verifier's answer, checked and frozen: handlers get exactly what was verified. */
function checked(auth: AuthInfo): AuthInfo {
  if (typeof auth !== 'object' || auth === null || !Array.isArray(auth.scopes)) {
    throw new TypeError('auth.verifyToken must resolve to an AuthInfo with a scopes array');
  }
  if ('token' in auth) {
    // The raw token is never handed to handlers, whatever a verifier returns.
    const { token: _dropped, ...rest } = auth as AuthInfo & { token?: unknown };
    return checked(rest);
  }
  return Object.freeze({ ...auth, scopes: Object.freeze([...auth.scopes]) });
}

/** Who a grant acts for: a legacy session stays with the user and client that opened it. */
function ownerOf(auth: AuthInfo): string | undefined {
  if (auth.subject === undefined && auth.clientId === undefined) return undefined;
  return JSON.stringify([auth.subject ?? null, auth.clientId ?? null]);
}
