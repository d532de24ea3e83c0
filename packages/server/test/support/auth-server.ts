/**
 * A protected endpoint for the auth tests: a real `McpServer` whose handlers report what they
 * see, served on a loopback port at `/mcp` with the `auth` option built for its resource URL.
 */
import type { HttpServerHandler } from '@twofold/transports/http-server';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { InputRequired } from '../../src/api';
import type { HttpAuthOptions } from '../../src/auth/types';
import {
  createServerHttpHandler,
  type ServerHttpHandlerOptions,
} from '../../src/serve/http-handler';
import { McpServer } from '../../src/server';
import { messagesOf } from './http-posts';

/** A server whose `whoami` tool answers with the `auth` and `headers` of its context. */
export function createAuthTestServer(): McpServer {
  const server = new McpServer({ name: 'auth-test', version: '1.0.0' });
  server.registerTool({
    name: 'whoami',
    handler: (_args, context) =>
      JSON.stringify({ era: context.era, auth: context.auth, headers: context.headers }),
  });
  server.registerTool({
    name: 'write',
    requiredScopes: ['files:write'],
    handler: () => 'written',
  });
  server.registerTool({
    name: 'confirm',
    handler: (_args, context) => {
      if (context.inputResponses !== undefined) return 'confirmed';
      throw new InputRequired({
        ok: {
          method: 'elicitation/create',
          params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } },
        },
      });
    },
  });
  server.registerPrompt({
    name: 'secret',
    requiredScopes: ['prompts:secret'],
    get: () => ({ messages: [] }),
  });
  server.registerResource({
    uri: 'file:///notes.txt',
    name: 'notes',
    requiredScopes: ['files:read'],
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'notes' }] }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'file:///docs/{name}',
    name: 'docs',
    requiredScopes: ['docs:read'],
    complete: { name: () => ['a', 'b'] },
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'doc' }] }),
  });
  return server;
}

/** A running protected endpoint. */
export interface ProtectedEndpoint {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`: also the resource URI tokens are issued for. */
  url: URL;
  resource: string;
  /** Where the metadata document is served. */
  metadataUrl: string;
  close(): Promise<void>;
}

/** Serves `server` with the `auth` option `auth(resource)` builds once the port is known. */
export async function serveProtected(
  server: McpServer,
  auth: (resource: string) => HttpAuthOptions,
  options: Omit<ServerHttpHandlerOptions, 'auth'> = {},
): Promise<ProtectedEndpoint> {
  let inner: HttpServerHandler | undefined;
  const late = Object.assign((request: Request) => (inner as HttpServerHandler)(request), {
    close: async () => inner?.close(),
  });
  const endpoint: ServedEndpoint = await serve(late, { port: 0 });
  const url = new URL('/mcp', endpoint.url);
  inner = createServerHttpHandler(server, { ...options, auth: auth(url.href) });
  return {
    url,
    resource: url.href,
    metadataUrl: new URL('/.well-known/oauth-protected-resource/mcp', url).href,
    close: () => endpoint.close(),
  };
}

/** The text of a tools/call answer (JSON or SSE, either era). */
export async function toolText(response: Response): Promise<string> {
  const [message] = await messagesOf(response);
  const result = message?.result as { content: { text: string }[] } | undefined;
  return result?.content[0]?.text ?? '';
}
