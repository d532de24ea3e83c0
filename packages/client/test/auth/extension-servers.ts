/**
 * A loopback `node:http` server for the authorization extension tests: a protected MCP endpoint
 * at `/mcp` (its metadata names the authorization server at `/as`), whose every other route a
 * test scripts. Each request is recorded with its headers and form, so a test can check what
 * the client sent; it closes when the test ends.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from '../support/era-targets';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  path: string;
  /** The full URL, query included. */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The body as a form (token requests) — empty for JSON or no body. */
  form: URLSearchParams;
  text: string;
}

/** What a route answers. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
}

export type Route = (request: Seen, base: string) => Reply | Promise<Reply>;

export interface ExtensionServer {
  base: string;
  /** The MCP endpoint. */
  url: URL;
  seen: Seen[];
  /** The requests to `path`, in order. */
  at(path: string): Seen[];
}

/** Serves `routes` (by path) on 127.0.0.1; an unknown path is a 404. */
export async function serveRoutes(routes: Record<string, Route>): Promise<ExtensionServer> {
  const seen: Seen[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', base);
      const request: Seen = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        headers: req.headers,
        form: req.headers['content-type']?.includes('form')
          ? new URLSearchParams(text)
          : new URLSearchParams(),
        text,
      };
      seen.push(request);
      const route = routes[url.pathname];
      Promise.resolve(route ? route(request, base) : { status: 404, json: { error: 'not_found' } })
        .then((reply) => {
          res.writeHead(reply.status ?? 200, {
            'content-type': 'application/json',
            ...reply.headers,
          });
          res.end(JSON.stringify(reply.json ?? {}));
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'server_error', error_description: String(error) }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    base,
    url: new URL('/mcp', base),
    seen,
    at: (path) => seen.filter((request) => request.path === path),
  };
}

/** The resource metadata route: `/mcp`, protected by the authorization server at `/as`. */
export const RESOURCE_METADATA = '/.well-known/oauth-protected-resource/mcp';
/** The authorization server metadata route of issuer `<base>/as`. */
export const SERVER_METADATA = '/.well-known/oauth-authorization-server/as';

/** Routes every test needs: the two metadata documents, `metadata` added to the server's. */
export function metadataRoutes(
  metadata: Record<string, unknown> | ((base: string) => Record<string, unknown>),
): Record<string, Route> {
  return {
    [RESOURCE_METADATA]: (_request, base) => ({
      json: { resource: `${base}/mcp`, authorization_servers: [`${base}/as`] },
    }),
    [SERVER_METADATA]: (_request, base) => ({
      json: {
        issuer: `${base}/as`,
        token_endpoint: `${base}/as/token`,
        response_types_supported: ['code'],
        ...(typeof metadata === 'function' ? metadata(base) : metadata),
      },
    }),
  };
}

/** The MCP endpoint's answer to a modern `tools/list` (the only request these tests send). */
export function toolsResult(request: Seen): Reply {
  const { id } = JSON.parse(request.text) as { id?: unknown };
  return { json: { jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [] } } };
}

/** A 401 pointing at the resource metadata, with `scheme` (`Bearer` or `DPoP`). */
export function unauthorized(base: string, scheme = 'Bearer', extra = ''): Reply {
  return {
    status: 401,
    headers: {
      'www-authenticate': `${scheme} ${extra}resource_metadata="${base}${RESOURCE_METADATA}"`,
    },
    json: { error: 'unauthorized' },
  };
}

/** A successful token response. */
export function issued(accessToken: string, extra: Record<string, unknown> = {}): Reply {
  return { json: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, ...extra } };
}
