import {
  buildRequestHeaders,
  buildRequestMeta,
  createRequest,
  LATEST_VERSION,
} from '@twofold/protocol/experimental';
import { jwtVerifier, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

// A stand-in authorization server: one signing key, its JWKS, and the tokens it issues.
const issuer = 'https://auth.example.com';
const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
const jwks = await serve(async () => Response.json({ keys: [jwk] }));
const resource = 'http://127.0.0.1:3000/mcp';
const issue = (scope: string) =>
  new SignJWT({ scope, client_id: 'notes-app' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setSubject('alice')
    .setExpirationTime('5m')
    .sign(privateKey);

// The MCP server: one tool behind a scope; its handler sees the verified grant, never the token.
const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.registerTool({
  name: 'whoami',
  requiredScopes: ['notes:read'],
  handler: (_args, { auth }) => `${auth?.subject} via ${auth?.clientId}: ${auth?.scopes.join(' ')}`,
});
const handler = createServerHttpHandler(server, {
  auth: {
    verifyToken: jwtVerifier({ jwksUrl: new URL('/jwks', jwks.url), issuer, audience: resource }),
    resourceMetadata: {
      resource,
      authorization_servers: [issuer],
      scopes_supported: ['notes:read'],
    },
  },
});
const endpoint = await serve(handler, { port: 3000 });

// A modern tools/call, with and without a token.
const message = createRequest(1, 'tools/call', {
  _meta: buildRequestMeta({ protocolVersion: LATEST_VERSION, clientCapabilities: {} }),
  name: 'whoami',
});
const call = (token?: string) =>
  fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...buildRequestHeaders(message, LATEST_VERSION),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(message),
  });

const anonymous = await call();
console.log(anonymous.status, anonymous.headers.get('www-authenticate'));
// 401 Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"
console.log(
  await (await fetch('http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp')).json(),
);
const narrow = await call(await issue('profile'));
console.log(narrow.status, narrow.headers.get('www-authenticate'));
// 403 Bearer error="insufficient_scope", …, scope="notes:read"
console.log(JSON.stringify(await (await call(await issue('notes:read'))).json()));
// {"result":{"content":[{"type":"text","text":"alice via notes-app: notes:read"}],…},…}
await endpoint.close();
await jwks.close();
