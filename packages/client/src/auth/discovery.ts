/**
 * Finding the authorization server of an MCP endpoint: its Protected Resource Metadata
 * (RFC 9728: the challenge's `resource_metadata`, else the path-based then the root well-known
 * URI), then the server's own metadata (RFC 8414 / OpenID Connect discovery, in the order the
 * MCP spec gives, issuer checked), and the 2025-03-26 fallbacks when a server has no PRM.
 */
import * as oauth from 'oauth4webapi';
import type { AuthChallenge } from './challenge';
import { AuthorizationError } from './errors';
import { getJson, type OAuthHttp, step } from './oauth-http';

/** The Protected Resource Metadata this client relies on. */
export interface ResourceMetadata {
  /** The canonical URI of the resource: the `resource` parameter of every request. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

/**
 * The endpoint's Protected Resource Metadata, or `undefined` when the server publishes none
 * (a 2025-03-26 server). Rejects a document for another resource.
 */
export async function discoverResource(
  http: OAuthHttp,
  endpoint: URL,
  challenge: AuthChallenge | undefined,
): Promise<ResourceMetadata | undefined> {
  const named = challenge?.params.resource_metadata;
  const candidates =
    named !== undefined ? [new URL(named, endpoint)] : wellKnownResourceUrls(endpoint);
  for (const url of candidates) {
    const response = await step('resource-metadata', `Fetching ${url.href}`, () =>
      getJson(http, url),
    );
    if (response === undefined) continue;
    return readResourceMetadata(endpoint, url, response);
  }
  return undefined;
}

/** The path-based well-known URI first, then the root one (RFC 9728 §3.1). */
function wellKnownResourceUrls(endpoint: URL): URL[] {
  const root = new URL('/.well-known/oauth-protected-resource', endpoint);
  const path = endpoint.pathname.replace(/\/$/, '');
  return path === ''
    ? [root]
    : [new URL(`/.well-known/oauth-protected-resource${path}`, endpoint), root];
}

async function readResourceMetadata(
  endpoint: URL,
  url: URL,
  response: Response,
): Promise<ResourceMetadata> {
  const what = `The resource metadata at ${url.href}`;
  const body: unknown = await step('resource-metadata', what, () => response.clone().json());
  const resource = (body as { resource?: unknown } | null)?.resource;
  if (typeof resource !== 'string' || !URL.canParse(resource)) {
    throw new AuthorizationError('resource-metadata', `${what} names no resource`, {
      details: { url: url.href },
    });
  }
  if (!coversEndpoint(new URL(resource), endpoint)) {
    throw new AuthorizationError(
      'resource-metadata',
      `${what} is for ${resource}, not for this server (${endpoint.origin}${endpoint.pathname})`,
      { details: { url: url.href, resource } },
    );
  }
  // oauth4webapi validates the document's shape against the resource it names.
  const metadata = await step('resource-metadata', what, () =>
    oauth.processResourceDiscoveryResponse(new URL(resource), response),
  );
  const servers = metadata.authorization_servers ?? [];
  if (servers.length === 0) {
    throw new AuthorizationError('resource-metadata', `${what} names no authorization server`, {
      details: { url: url.href },
    });
  }
  return {
    resource,
    authorizationServers: [...servers],
    ...(metadata.scopes_supported ? { scopesSupported: [...metadata.scopes_supported] } : {}),
  };
}

/** A resource covers the endpoint when it is the same origin and a path prefix of it. */
function coversEndpoint(resource: URL, endpoint: URL): boolean {
  if (resource.origin !== endpoint.origin || resource.search !== '' || resource.hash !== '') {
    return false;
  }
  const prefix = resource.pathname.replace(/\/$/, '');
  const path = endpoint.pathname;
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The authorization server's metadata, tried at each well-known URI in the spec's order;
 * `undefined` when none answers. A document whose issuer is not `issuer` is rejected.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
): Promise<oauth.AuthorizationServer | undefined> {
  const issuerUrl = new URL(issuer);
  for (const url of metadataUrls(issuerUrl)) {
    const what = `The authorization server metadata at ${url.href}`;
    const response = await step('authorization-server-metadata', `Fetching ${url.href}`, () =>
      getJson(http, url),
    );
    if (response === undefined) continue;
    return step(
      'authorization-server-metadata',
      what,
      () => oauth.processDiscoveryResponse(issuerUrl, response),
      {
        url: url.href,
        issuer,
      },
    );
  }
  return undefined;
}

/** RFC 8414 path insertion, then OpenID Connect insertion, then OpenID Connect appending. */
function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (wellKnown: string) => new URL(`/.well-known/${wellKnown}${path}`, issuer);
  if (path === '') return [at('oauth-authorization-server'), at('openid-configuration')];
  return [
    at('oauth-authorization-server'),
    at('openid-configuration'),
    new URL(`${path}/.well-known/openid-configuration`, issuer),
  ];
}

/**
 * A 2025-03-26 server without PRM is its own authorization server; without metadata, its
 * endpoints are `/authorize`, `/token` and `/register` at its origin.
 */
export function fallbackAuthorizationServer(endpoint: URL): oauth.AuthorizationServer {
  const at = (path: string) => new URL(path, endpoint.origin).href;
  return {
    issuer: endpoint.origin,
    authorization_endpoint: at('/authorize'),
    token_endpoint: at('/token'),
    registration_endpoint: at('/register'),
    code_challenge_methods_supported: ['S256'],
  };
}
