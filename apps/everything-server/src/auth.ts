/**
 * The protected mode of the everything server: its HTTP endpoint at `/mcp` becomes an OAuth 2.1
 * resource server for tokens of one authorization server (JWTs checked against its JWKS), with
 * a `whoami` tool that reports what the caller's token granted.
 */
import { type HttpAuthOptions, jwtVerifier, type McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import type { HttpServerHandler } from '@twofold/transports/http-server';
import { type ServedEndpoint, serve } from '@twofold/transports/node';

/** What the `--auth-*` flags say. */
export interface AuthFlags {
  jwksUrl: string;
  issuer: string;
  /** Tokens must name this audience; default: the endpoint's URL. */
  audience: string | undefined;
  /** Scopes the `whoami` tool requires. */
  scopes: string[];
}

/** The protected endpoint, listening. */
export interface ProtectedServer {
  endpoint: ServedEndpoint;
  /** The MCP endpoint (and the resource tokens are for, unless `--auth-audience` says else). */
  url: URL;
  /** Where the Protected Resource Metadata document is served. */
  metadataUrl: URL;
}

/** `whoami`: what the request's token granted (never the token), behind the given scopes. */
export function registerWhoamiTool(server: McpServer, scopes: readonly string[]): void {
  server.registerTool({
    name: 'whoami',
    description: 'Reports who the access token acts for and what it grants',
    annotations: { readOnlyHint: true },
    requiredScopes: scopes,
    handler: (_args, { auth }) =>
      JSON.stringify({
        subject: auth?.subject,
        clientId: auth?.clientId,
        scopes: auth?.scopes ?? [],
        expiresAt: auth?.expiresAt,
      }),
  });
}

function authOptions(flags: AuthFlags, resource: string): HttpAuthOptions {
  return {
    verifyToken: jwtVerifier({
      jwksUrl: flags.jwksUrl,
      issuer: flags.issuer,
      audience: flags.audience ?? resource,
    }),
    resourceMetadata: {
      resource,
      authorization_servers: [flags.issuer],
      ...(flags.scopes.length > 0 ? { scopes_supported: flags.scopes } : {}),
      resource_name: 'twofold everything server',
    },
  };
}

/**
 * Serves `server` protected on `host:port`. The resource URI needs the bound port (`--port 0`
 * picks one), so the handler is built once the socket listens; nothing arrives before that.
 */
export async function serveProtected(
  server: McpServer,
  flags: AuthFlags,
  listen: { host: string; port: number },
): Promise<ProtectedServer> {
  let handler: HttpServerHandler | undefined;
  const late = Object.assign((request: Request) => (handler as HttpServerHandler)(request), {
    close: async () => handler?.close(),
  });
  const endpoint = await serve(late, listen);
  const url = new URL('/mcp', endpoint.url);
  handler = createServerHttpHandler(server, { auth: authOptions(flags, url.href) });
  const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', url);
  return { endpoint, url, metadataUrl };
}
