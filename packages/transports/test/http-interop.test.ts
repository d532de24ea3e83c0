/**
 * Interop: the official `@modelcontextprotocol/client` 2.4.0 Streamable HTTP client transport
 * against the twofold server core, in the modern era (pinned to 2026-07-28) and the legacy era
 * (its default 2025 handshake). The MCP logic here is a minimal stand-in; the point is that the
 * HTTP duties (headers, statuses, JSON vs SSE, sessions, GET stream, DELETE) match what a real
 * client sends and expects.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createResultResponse,
  ErrorCode,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  type HttpExchange,
  InMemoryEventStore,
  type LegacyHooks,
  type LegacySession,
} from '../src/http-server/index';
import { type ServedEndpoint, serve } from '../src/node';

const SERVER_INFO = { name: 'twofold-core-interop', version: '0.0.0' };
const TOOL = {
  name: 'echo',
  description: 'Echoes its text argument.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function echoContent(params: Record<string, unknown> | undefined) {
  const args = (params?.arguments ?? {}) as { text?: unknown };
  return [{ type: 'text', text: `echo: ${String(args.text)}` }];
}

/** Method and `MCP-Protocol-Version` header of every modern POST, in order. */
let modernSeen: string[] = [];

/** A minimal modern server: discover, tools/list and tools/call, with progress on calls. */
async function modernHandler(
  message: JsonRpcRequest | JsonRpcNotification,
  exchange: HttpExchange,
) {
  modernSeen.push(`${message.method} @ ${exchange.headers['mcp-protocol-version']}`);
  if (!('id' in message)) return;
  const cacheable = { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
  const meta = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
  switch (message.method) {
    case 'server/discover':
      return exchange.respond(
        createResultResponse(message.id, {
          ...cacheable,
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          _meta: meta,
        }),
      );
    case 'tools/list':
      return exchange.respond(
        createResultResponse(message.id, { ...cacheable, tools: [TOOL], _meta: meta }),
      );
    case 'tools/call': {
      const token = (message.params?._meta as { progressToken?: unknown } | undefined)
        ?.progressToken;
      // Something before the result turns the answer into an SSE stream.
      if (token !== undefined) {
        await exchange.notify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 1 },
        });
      }
      return exchange.respond(
        createResultResponse(message.id, {
          resultType: 'complete',
          content: echoContent(message.params),
          _meta: meta,
        }),
      );
    }
    default:
      return exchange.respond({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${message.method}` },
      });
  }
}

/** A minimal legacy server: initialize, tools/list, tools/call; records what it saw. */
function legacyResponder() {
  const seen: string[] = [];
  const sessions: LegacySession[] = [];
  const hooks: LegacyHooks = {
    onSession: async (session) => {
      sessions.push(session);
      session.onmessage = (message: JsonRpcMessage) => {
        if (!('method' in message)) return;
        seen.push(message.method);
        if (!('id' in message)) return;
        const reply = (id: RequestId, result: Record<string, unknown>) =>
          session.send(createResultResponse(id, result), { relatedRequestId: id });
        switch (message.method) {
          case 'initialize':
            void reply(message.id, {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: { listChanged: true } },
              serverInfo: SERVER_INFO,
            });
            return;
          case 'tools/list':
            void reply(message.id, { tools: [TOOL] });
            return;
          case 'tools/call': {
            const id = message.id;
            const token = (message.params?._meta as { progressToken?: unknown } | undefined)
              ?.progressToken;
            const progress = {
              jsonrpc: '2.0' as const,
              method: 'notifications/progress',
              params: { progressToken: token, progress: 1 },
            };
            // With a progress token, the POST answer becomes an SSE stream (primed with 2025-11-25).
            const before =
              token === undefined
                ? Promise.resolve()
                : session.send(progress, { relatedRequestId: id });
            void before.then(() => reply(id, { content: echoContent(message.params) }));
            return;
          }
          default:
            void session.send({
              jsonrpc: '2.0',
              id: message.id,
              error: { code: ErrorCode.MethodNotFound, message: 'Method not found' },
            });
        }
      };
      await session.start();
    },
  };
  return { hooks, seen, sessions };
}

let endpoint: ServedEndpoint | undefined;
let client: Client | undefined;

afterEach(async () => {
  modernSeen = [];
  await client?.close();
  client = undefined;
  await endpoint?.close();
  endpoint = undefined;
});

describe('official client 2.4.0 → twofold server core', () => {
  it('modern (2026-07-28): discovers, lists tools and calls one, with progress over SSE', async () => {
    endpoint = await serve(createHttpHandler({ modern: modernHandler }));
    client = new Client(
      { name: 'official-client', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'echo', arguments: { text: 'hello 世界' } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hello 世界' }]);
    expect(progress).toEqual([1]);
    expect(modernSeen).toEqual([
      'server/discover @ 2026-07-28',
      'tools/list @ 2026-07-28',
      'tools/call @ 2026-07-28',
    ]);
  });

  it('modern, auto negotiation: the probe finds a modern server', async () => {
    endpoint = await serve(createHttpHandler({ modern: modernHandler }));
    client = new Client(
      { name: 'official-client', version: '2.4.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'auto' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: auto' }]);
    expect(modernSeen).toEqual(['server/discover @ 2026-07-28', 'tools/call @ 2026-07-28']);
  });

  it.each([
    ['without', undefined],
    ['with', new InMemoryEventStore()],
  ])(
    'legacy (its default 2025 handshake) %s an event store: session, GET stream, tools, DELETE',
    async (_, eventStore) => {
      const legacy = legacyResponder();
      endpoint = await serve(createHttpHandler({ legacy: { ...legacy.hooks, eventStore } }));
      client = new Client({ name: 'official-client', version: '2.4.0' });
      const transport = new StreamableHTTPClientTransport(endpoint.url);
      const listChanged = new Promise<void>((resolve) => {
        client?.setNotificationHandler('notifications/tools/list_changed', () => resolve());
      });
      await client.connect(transport);
      expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo']);
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'echo', arguments: { text: 'legacy' } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'echo: legacy' }]);
      expect(progress).toEqual([1]);

      // An unrelated server message reaches the client over the GET stream it opened. The
      // stream may still be opening, so keep it queued until then (the core does that).
      await legacy.sessions[0]?.send({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
      });
      await listChanged;

      const closed = new Promise<void>((resolve) => {
        const session = legacy.sessions[0];
        if (session !== undefined) session.onclose = () => resolve();
      });
      await transport.terminateSession();
      await closed;
      expect(legacy.seen).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/list',
        'tools/call',
      ]);
    },
  );

  it('dual-era endpoint: the same handler serves a modern and a legacy client', async () => {
    const legacy = legacyResponder();
    endpoint = await serve(createHttpHandler({ modern: modernHandler, legacy: legacy.hooks }));
    const modernClient = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modernClient.connect(new StreamableHTTPClientTransport(endpoint.url));
    client = new Client({ name: 'legacy', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const [modernResult, legacyResult] = await Promise.all([
      modernClient.callTool({ name: 'echo', arguments: { text: 'm' } }),
      client.callTool({ name: 'echo', arguments: { text: 'l' } }),
    ]);
    expect(modernResult.content).toEqual([{ type: 'text', text: 'echo: m' }]);
    expect(legacyResult.content).toEqual([{ type: 'text', text: 'echo: l' }]);
    expect(legacy.sessions).toHaveLength(1);
    expect(legacy.seen).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(modernSeen).toEqual(['server/discover @ 2026-07-28', 'tools/call @ 2026-07-28']);
    await modernClient.close();
  });
});
