import { McpClient, OAuthProvider } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { jwtVerifier, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

// A stand-in authorization server: RFC 8414 metadata, a JWKS, and a token endpoint that
// grants client credentials to one pre-registered client.
const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
let issuer = '';
const authServer = await serve(async (request) => {
  const { pathname } = new URL(request.url);
  if (pathname === '/.well-known/oauth-authorization-server') {
    return Response.json({
      issuer,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    });
  }
  if (pathname === '/jwks') return Response.json({ keys: [jwk] });
  const form = new URLSearchParams(await request.text());
  if (request.headers.get('authorization') !== `Basic ${btoa('reporter:s3cret')}`) {
    return Response.json({ error: 'invalid_client' }, { status: 401 });
  }
  const accessToken = await new SignJWT({ scope: form.get('scope') ?? '', client_id: 'reporter' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(form.get('resource') ?? '')
    .setSubject('reporter')
    .setExpirationTime('5m')
    .sign(privateKey);
  return Response.json({ access_token: accessToken, token_type: 'Bearer', expires_in: 300 });
});
issuer = authServer.url.origin;

// The protected MCP server (see "Protecting a server").
const resource = 'http://127.0.0.1:3001/mcp';
const server = new McpServer({ name: 'reports', version: '1.0.0' });
server.registerTool({
  name: 'whoami',
  requiredScopes: ['reports:read'],
  handler: (_args, { auth }) => `${auth?.subject} with ${auth?.scopes.join(' ')}`,
});
const endpoint = await serve(
  createServerHttpHandler(server, {
    auth: {
      verifyToken: jwtVerifier({ jwksUrl: `${issuer}/jwks`, issuer, audience: resource }),
      resourceMetadata: {
        resource,
        authorization_servers: [issuer],
        scopes_supported: ['reports:read'],
      },
    },
  }),
  { port: 3001 },
);

// The client: one provider does discovery, the token request and the retry.
const auth = new OAuthProvider({
  grant: { type: 'client_credentials' },
  client: { clientId: 'reporter', clientSecret: 's3cret' },
});
const client = await McpClient.connect(httpServer({ url: resource, auth }), {
  clientInfo: { name: 'reports-client', version: '1.0.0' },
});
const result = await client.callTool('whoami');
console.log(result.content[0]?.type === 'text' ? result.content[0].text : result);
// reporter with reports:read
await client.close();
await endpoint.close();
await authServer.close();
