/**
 * The Protected Resource Metadata document (RFC 9728): checked once, then served at the
 * path-based well-known location of the resource, with CORS open so browser clients can read it.
 */
import { isScopeToken } from '../registry/checks';
import type { ProtectedResourceMetadata } from './types';

/** The well-known suffix of RFC 9728. */
export const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** A checked metadata document and where it lives. */
export interface ResolvedMetadata {
  /** The canonical resource URI, as published. */
  readonly resource: string;
  /** The document's URL: what challenges name in `resource_metadata`. */
  readonly url: string;
  /** The document's path on this origin. */
  readonly path: string;
  /** The JSON body, serialised once. */
  readonly body: string;
}

/**
 * Where the document of `resource` lives: the well-known suffix inserted between the origin
 * and the resource's path (RFC 9728 §3.1), `https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`.
 */
export function metadataUrlOf(resource: string): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return new URL(`${PRM_WELL_KNOWN}${path}`, url.origin);
}

function checkUrl(what: string, value: unknown): URL {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new TypeError(`resourceMetadata.${what} must be an absolute URL`);
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`resourceMetadata.${what} must be an http(s) URL`);
  }
  if (url.hash !== '' || value.includes('#')) {
    throw new TypeError(`resourceMetadata.${what} must not have a fragment`);
  }
  return url;
}

/** Checks the document (throwing a `TypeError`) and fills in `bearer_methods_supported`. */
export function resolveMetadata(metadata: ProtectedResourceMetadata): ResolvedMetadata {
  if (typeof metadata !== 'object' || metadata === null) {
    throw new TypeError('auth.resourceMetadata must be an object');
  }
  const resource = checkUrl('resource', metadata.resource);
  // A query would have to follow the path of the well-known URL; MCP resources have none.
  if (resource.search !== '')
    throw new TypeError('resourceMetadata.resource must not have a query');
  const servers = metadata.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new TypeError('resourceMetadata.authorization_servers must name at least one issuer');
  }
  for (const [index, server] of servers.entries())
    checkUrl(`authorization_servers[${index}]`, server);
  const scopes = metadata.scopes_supported;
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every(isScopeToken))) {
    throw new TypeError('resourceMetadata.scopes_supported must be an array of scope tokens');
  }
  const methods = metadata.bearer_methods_supported ?? ['header'];
  // MCP clients send tokens in the Authorization header only, never in the query.
  if (!Array.isArray(methods) || methods.includes('query')) {
    throw new TypeError('resourceMetadata.bearer_methods_supported must not include "query"');
  }
  const document = { ...metadata, bearer_methods_supported: methods };
  const url = metadataUrlOf(metadata.resource);
  return {
    resource: metadata.resource,
    url: url.href,
    path: url.pathname,
    body: JSON.stringify(document),
  };
}

const CORS = { 'Access-Control-Allow-Origin': '*' };

/**
 * Answers a request for the metadata document, or `undefined` when the request is for
 * something else. No token is needed: a client reads it to learn how to get one.
 */
export function serveMetadata(request: Request, metadata: ResolvedMetadata): Response | undefined {
  if (new URL(request.url).pathname !== metadata.path) return undefined;
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      return new Response(request.method === 'GET' ? metadata.body : null, {
        status: 200,
        headers: { ...CORS, 'Content-Type': 'application/json' },
      });
    case 'OPTIONS':
      // A browser's preflight (clients may send MCP-Protocol-Version along).
      return new Response(null, {
        status: 204,
        headers: {
          ...CORS,
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers':
            request.headers.get('access-control-request-headers') ?? '*',
          'Access-Control-Max-Age': '86400',
        },
      });
    default:
      return new Response(null, { status: 405, headers: { ...CORS, Allow: 'GET, HEAD, OPTIONS' } });
  }
}
