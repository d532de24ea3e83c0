/**
 * A protected MCP endpoint and its authorization server on one loopback port, every answer
 * scripted, for the OAuth client's fault tests: each part can lie (issuer, resource, PKCE),
 * break (HTML, silence, errors) or loop. It records what the client asked, so a test can check
 * that a rejected step went no further. Defaults make a working flow.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthorizer } from '@twofold/transports/experimental';
import { StreamableHttpClientTransport } from '@twofold/transports/http';
import type { AuthorizationHandler } from '../../src/auth/types';
import { startHttp } from './era-http';
import { onCleanup } from './era-targets';

/** How the server answers; every field has a working default. */
export interface Script {
  /** `WWW-Authenticate` of a 401 (`base` is the server's origin). */
  challenge(base: string): string;
  /** The PRM document, or `undefined` for 404. */
  resourceMetadata(base: string): unknown;
  /** The AS metadata, `'html'` for a web page, or `'silent'` for no answer at all. */
  serverMetadata(base: string): unknown;
  /** Where the authorization endpoint sends the browser. */
  redirect(query: URLSearchParams, base: string): string;
  /** The token endpoint's answer. */
  token(body: URLSearchParams, issued: number): { status: number; body: unknown };
  /** Whether the MCP endpoint accepts a request with this `Authorization` header. */
  accepts(authorization: string | undefined, tokens: readonly string[]): 200 | 401 | 403;
}

/** What the running server saw. */
export interface ScriptedServer {
  url: URL;
  base: string;
  /** `GET /path` for every request, in order. */
  requests: string[];
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  registrations: unknown[];
  /** The `Authorization` header of each MCP request. */
  mcpAuthorizations: (string | undefined)[];
  issued: string[];
}

export const DEFAULT_SCRIPT: Script = {
  challenge: (base) =>
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
  resourceMetadata: (base) => ({ resource: `${base}/mcp`, authorization_servers: [`${base}/as`] }),
  serverMetadata: (base) => ({
    issuer: `${base}/as`,
    authorization_endpoint: `${base}/as/authorize`,
    token_endpoint: `${base}/as/token`,
    registration_endpoint: `${base}/as/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  }),
  redirect: (query, base) => {
    const to = new URL(query.get('redirect_uri') ?? '');
    to.searchParams.set('code', 'the-code');
    to.searchParams.set('state', query.get('state') ?? '');
    to.searchParams.set('iss', `${base}/as`);
    return to.href;
  },
  token: (body, issued) => ({
    status: 200,
    body: {
      access_token: `at-${issued}`,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: `rt-${issued}`,
      ...(body.get('scope') ? { scope: body.get('scope') } : {}),
    },
  }),
  accepts: (authorization, tokens) =>
    authorization !== undefined && tokens.includes(authorization.replace(/^Bearer /, ''))
      ? 200
      : 401,
};

/** Starts the server with `overrides` replacing parts of the default script. */
export async function startScripted(overrides: Partial<Script> = {}): Promise<ScriptedServer> {
  const script = { ...DEFAULT_SCRIPT, ...overrides };
  const seen: Omit<ScriptedServer, 'url' | 'base'> = {
    requests: [],
    authorizations: [],
    tokenRequests: [],
    registrations: [],
    mcpAuthorizations: [],
    issued: [],
  };
  let base = '';
  const server = await startHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    seen.requests.push(`${req.method} ${url.pathname}`);
    const body = await readBody(req);
    await route(script, seen, base, url, req, body, res);
  });
  base = server.url('/').origin;
  return { url: server.url('/mcp'), base, ...seen };
}

async function route(
  script: Script,
  seen: Omit<ScriptedServer, 'url' | 'base'>,
  base: string,
  url: URL,
  req: IncomingMessage,
  body: string,
  res: ServerResponse,
): Promise<void> {
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  switch (url.pathname) {
    case '/mcp': {
      seen.mcpAuthorizations.push(req.headers.authorization);
      const status = script.accepts(req.headers.authorization, seen.issued);
      if (status !== 200)
        return json(status, { error: 'denied' }, { 'www-authenticate': script.challenge(base) });
      const message = JSON.parse(body) as { id?: unknown };
      return json(200, {
        jsonrpc: '2.0',
        id: message.id,
        result: { resultType: 'complete', tools: [] },
      });
    }
    case '/.well-known/oauth-protected-resource/mcp': {
      const document = script.resourceMetadata(base);
      return document === undefined ? json(404, {}) : json(200, document);
    }
    case '/.well-known/oauth-authorization-server/as': {
      const document = script.serverMetadata(base);
      if (document === 'silent') return; // never answered: the client's bound must end it
      if (document === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>Sign in</body></html>');
      }
      return json(200, document);
    }
    case '/as/register':
      seen.registrations.push(JSON.parse(body));
      return json(201, { client_id: 'registered-client', token_endpoint_auth_method: 'none' });
    case '/as/authorize':
      seen.authorizations.push(url.searchParams);
      res.writeHead(302, { location: script.redirect(url.searchParams, base) });
      return void res.end();
    case '/as/token': {
      const form = new URLSearchParams(body);
      seen.tokenRequests.push(form);
      const answer = script.token(form, seen.tokenRequests.length);
      const token = (answer.body as { access_token?: unknown }).access_token;
      if (answer.status === 200 && typeof token === 'string') seen.issued.push(token);
      return json(answer.status, answer.body);
    }
    default:
      return json(404, {});
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** A browser that consents at once: it stops at the redirect and hands it back. */
export function scriptedBrowser(
  redirectUri = 'http://127.0.0.1:9/callback',
): AuthorizationHandler & {
  opened: URL[];
} {
  const opened: URL[] = [];
  return {
    opened,
    redirectUri: () => redirectUri,
    async authorize({ url, signal }) {
      opened.push(url);
      const response = await fetch(url, { redirect: 'manual', signal });
      await response.body?.cancel();
      return new URL(response.headers.get('location') ?? '', url);
    },
  };
}

/** Sends one modern `tools/list` through a transport authorized by `auth`; resolves with the answer. */
export async function listTools(url: URL, auth: HttpAuthorizer, id = 1): Promise<unknown> {
  const transport = new StreamableHttpClientTransport({ url, era: 'modern', auth });
  onCleanup(() => transport.close());
  const answered = new Promise<unknown>((resolve) => {
    transport.onmessage = (message) => resolve(message);
  });
  await transport.start();
  await transport.send({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
  return answered;
}
