/**
 * The HTTP handler as an OAuth resource server, driven with plain fetch in both eras: the 401
 * challenge and the metadata document it names, `context.auth` and `context.headers` in
 * handlers, scope checks (403), and legacy sessions that follow each POST's token.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../src/auth/jwt-verifier';
import {
  type Claims,
  ISSUER,
  type JwksEndpoint,
  mint,
  type SigningKey,
  serveJwks,
  signingKey,
} from './support/auth-keys';
import {
  createAuthTestServer,
  type ProtectedEndpoint,
  serveProtected,
  toolText,
} from './support/auth-server';
import { legacyPost, messagesOf, modernPost } from './support/http-posts';
import { modernParams } from './support/peer';

let key: SigningKey;
let jwks: JwksEndpoint;
let endpoint: ProtectedEndpoint | undefined;

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await serveJwks([key]);
});
afterAll(() => jwks.close());
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function start(requiredScopes?: string[]): Promise<ProtectedEndpoint> {
  endpoint = await serveProtected(createAuthTestServer(), (resource) => ({
    verifyToken: jwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: resource }),
    resourceMetadata: {
      resource,
      authorization_servers: [ISSUER],
      scopes_supported: ['mcp'],
      resource_name: 'auth test',
    },
    requiredScopes,
  }));
  return endpoint;
}

/** A token for the endpoint, as user `sub` with `scope`. */
function tokenFor(target: ProtectedEndpoint, claims: Claims = {}): Promise<string> {
  return mint(key, {
    aud: target.resource,
    sub: 'alice',
    client_id: 'app',
    scope: 'mcp',
    ...claims,
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function call(url: URL, token: string, name: string, id = 1) {
  return modernPost(url, id, 'tools/call', modernParams({ name, arguments: {} }), {
    headers: bearer(token),
  });
}

describe('a request without a token', () => {
  it('gets 401 naming the metadata document, which is served there without a token', async () => {
    const target = await start();
    const response = await modernPost(target.url, 1, 'tools/list', modernParams());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${target.metadataUrl}"`,
    );
    expect(target.metadataUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp$/,
    );

    const document = await fetch(target.metadataUrl);
    expect(document.status).toBe(200);
    expect(document.headers.get('access-control-allow-origin')).toBe('*');
    expect(await document.json()).toEqual({
      resource: target.resource,
      authorization_servers: [ISSUER],
      scopes_supported: ['mcp'],
      resource_name: 'auth test',
      bearer_methods_supported: ['header'],
    });
    const preflight = await fetch(target.metadataUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('gets 401 for legacy POSTs, GET streams and DELETEs too; the challenge names required scopes', async () => {
    const target = await start(['mcp']);
    const init = await legacyPost(target.url, initialize());
    expect(init.status).toBe(401);
    expect(init.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${target.metadataUrl}", scope="mcp"`,
    );
    const stream = await fetch(target.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' },
    });
    expect(stream.status).toBe(401);
    expect((await fetch(target.url, { method: 'DELETE' })).status).toBe(401);
    // Another scheme is no Bearer token; a mangled Bearer credential is a bad request.
    const basic = await modernPost(target.url, 2, 'tools/list', modernParams(), {
      headers: { authorization: 'Basic YTpi' },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).not.toContain('error=');
    const mangled = await modernPost(target.url, 3, 'tools/list', modernParams(), {
      headers: { authorization: 'Bearer a b' },
    });
    expect(mangled.status).toBe(400);
    expect(mangled.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });
});

describe('a valid token', () => {
  it('reaches modern handlers as context.auth, with the headers minus credentials', async () => {
    const target = await start();
    const token = await tokenFor(target);
    const response = await call(target.url, token, 'whoami');
    expect(response.status).toBe(200);
    const text = await toolText(response);
    expect(text).not.toContain(token);
    const seen = JSON.parse(text);
    expect(seen.era).toBe('modern');
    expect(seen.auth).toMatchObject({
      subject: 'alice',
      clientId: 'app',
      scopes: ['mcp'],
      resource: target.resource,
      expiresAt: expect.any(Number),
      extra: { claims: { iss: ISSUER, sub: 'alice' } },
    });
    expect(seen.auth.token).toBeUndefined();
    expect(seen.headers['mcp-method']).toBe('tools/call');
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('reaches legacy handlers per POST: a token refreshed mid-session is seen at once', async () => {
    const target = await start();
    const first = await tokenFor(target, { scope: 'mcp' });
    const init = await legacyPost(target.url, initialize(), bearer(first));
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(
      (await legacyPost(target.url, initialized, { ...session, ...bearer(first) })).status,
    ).toBe(202);

    const whoami = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'whoami' },
    });
    const before = JSON.parse(
      await toolText(await legacyPost(target.url, whoami(1), { ...session, ...bearer(first) })),
    );
    expect(before).toMatchObject({ era: 'legacy', auth: { subject: 'alice', scopes: ['mcp'] } });
    expect(before.headers['mcp-session-id']).toBe(sessionId);
    expect(before.headers.authorization).toBeUndefined();

    const refreshed = await tokenFor(target, { scope: 'mcp files:write' });
    const after = JSON.parse(
      await toolText(await legacyPost(target.url, whoami(2), { ...session, ...bearer(refreshed) })),
    );
    expect(after.auth.scopes).toEqual(['mcp', 'files:write']);

    // Someone else's valid token with alice's session id: no such session for them.
    const mallory = await tokenFor(target, { sub: 'mallory' });
    const stolen = await legacyPost(target.url, whoami(3), { ...session, ...bearer(mallory) });
    expect(stolen.status).toBe(404);
  });
});

describe('scopes', () => {
  it('answer 403 insufficient_scope naming every scope the call needs, in both eras', async () => {
    const target = await start(['mcp']);
    const token = await tokenFor(target, { scope: 'mcp' });
    const refused = await call(target.url, token, 'write');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a scope this request requires", resource_metadata="${target.metadataUrl}", scope="mcp files:write"`,
    );
    const granted = await tokenFor(target, { scope: 'mcp files:write' });
    expect(await toolText(await call(target.url, granted, 'write'))).toBe('written');

    const init = await legacyPost(target.url, initialize(), bearer(token));
    const session = {
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      ...bearer(token),
    };
    const legacyCall = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'write' } };
    const legacyRefused = await legacyPost(target.url, legacyCall, session);
    expect(legacyRefused.status).toBe(403);
    expect(legacyRefused.headers.get('www-authenticate')).toContain('scope="mcp files:write"');
  });

  it('cover prompts, resources, templates and completions; listing is not filtered', async () => {
    const target = await start();
    const token = await tokenFor(target, { scope: 'mcp' });
    const headers = bearer(token);
    const post = (id: number, method: string, params: Record<string, unknown>) =>
      modernPost(target.url, id, method, modernParams(params), { headers });
    const scopeOf = (response: Response) =>
      /scope="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1];

    const prompt = await post(1, 'prompts/get', { name: 'secret' });
    expect([prompt.status, scopeOf(prompt)]).toEqual([403, 'prompts:secret']);
    const read = await post(2, 'resources/read', { uri: 'file:///notes.txt' });
    expect([read.status, scopeOf(read)]).toEqual([403, 'files:read']);
    const templated = await post(3, 'resources/read', { uri: 'file:///docs/a' });
    expect([templated.status, scopeOf(templated)]).toEqual([403, 'docs:read']);
    const complete = await post(4, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'file:///docs/{name}' },
      argument: { name: 'name', value: '' },
    });
    expect([complete.status, scopeOf(complete)]).toEqual([403, 'docs:read']);

    const list = await post(5, 'tools/list', {});
    expect(list.status).toBe(200);
    const [listed] = await messagesOf(list);
    const names = ((listed?.result ?? { tools: [] }) as { tools: { name: string }[] }).tools.map(
      (tool) => tool.name,
    );
    expect(names).toContain('write');
  });

  it('binds a requestState to the caller it was issued to', async () => {
    const target = await start();
    const alice = await tokenFor(target);
    const elicit = { elicitation: { form: {} } };
    const first = await modernPost(
      target.url,
      1,
      'tools/call',
      modernParams({ name: 'confirm', arguments: {} }, {}, elicit),
      { headers: bearer(alice) },
    );
    const [asked] = await messagesOf(first);
    const requestState = (asked?.result as { requestState?: string } | undefined)?.requestState;
    const retry = (token: string, id: number) =>
      modernPost(
        target.url,
        id,
        'tools/call',
        modernParams(
          {
            name: 'confirm',
            arguments: {},
            requestState,
            inputResponses: { ok: { action: 'accept', content: {} } },
          },
          {},
          elicit,
        ),
        { headers: bearer(token) },
      );
    const bob = await tokenFor(target, { sub: 'bob' });
    const [stolen] = await messagesOf(await retry(bob, 2));
    expect(stolen).toMatchObject({ error: { code: -32602, data: { reason: 'mismatch' } } });
    expect(await toolText(await retry(alice, 3))).toBe('confirmed');
  });
});

function initialize() {
  return {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    },
  };
}
