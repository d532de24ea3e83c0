/**
 * HTTP part of the client-connect benchmark, on 127.0.0.1 in this process: a modern twofold
 * server (`createServerHttpHandler`, both eras) and a legacy official SDK 1.32.2 Streamable
 * HTTP server (stateful, one session per `initialize`, as the SDK's examples run it). Each
 * contender connects and lists tools; the servers live for the whole benchmark.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer as Sdk1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpClient, type McpClientOptions } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import {
  type ConnectAndList,
  type ConnectContender,
  type SamplingOptions,
  sampleAlternating,
} from './client-connect-stats';
import { TOOL_COUNT } from './client-connect-stdio';

const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };
const TOOL_NAMES = ['search', 'fetch', 'summarize'];

function twofoldServer(): McpServer {
  const server = new McpServer({ name: 'bench-twofold', version: '1.0.0' });
  for (const name of TOOL_NAMES) {
    server.registerTool({
      name,
      description: `The ${name} tool`,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: ({ text }) => `${name}: ${String(text)}`,
    });
  }
  return server;
}

function sdk1Server(): Sdk1McpServer {
  const server = new Sdk1McpServer({ name: 'bench-sdk1', version: '1.0.0' });
  for (const name of TOOL_NAMES) {
    server.registerTool(name, { description: `The ${name} tool` }, () => ({
      content: [{ type: 'text', text: name }],
    }));
  }
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The SDK 1.32.2 legacy server: sessions keyed by `mcp-session-id`, 400 without one. */
async function startSdk1(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server: Server = createServer(async (req, res) => {
    try {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => {
            sessions.set(sid, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await sdk1Server().connect(created);
        transport = created;
      }
      if (!transport) {
        const error = { code: -32000, message: 'Bad Request: No valid session ID provided' };
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error }));
        return;
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function twofoldHttp(
  url: string,
  options: Partial<McpClientOptions>,
  era: 'modern' | 'legacy',
): ConnectAndList {
  const target = httpServer({ url });
  return async () => {
    const client = await McpClient.connect(target, {
      clientInfo: CLIENT_INFO,
      cache: false,
      ...options,
    });
    try {
      const { tools } = await client.listTools();
      if (tools.length !== TOOL_COUNT || client.era !== era) {
        throw new Error(`client-connect: twofold ${client.era} listed ${tools.length} tools`);
      }
    } catch (error) {
      await client.close();
      throw error;
    }
    return () => client.close();
  };
}

function officialHttp(url: string, era: 'modern' | 'legacy', auto: boolean): ConnectAndList {
  return async () => {
    const client = new Client(CLIENT_INFO, auto ? { versionNegotiation: { mode: 'auto' } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const close = async () => {
      // A legacy session is ended as the SDK documents it: DELETE, then close.
      if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
      await client.close();
    };
    try {
      const { tools } = await client.listTools();
      if (tools.length !== TOOL_COUNT || client.getProtocolEra() !== era) {
        throw new Error(
          `client-connect: official ${client.getProtocolEra()} listed ${tools.length}`,
        );
      }
    } catch (error) {
      await close();
      throw error;
    }
    return close;
  };
}

export interface HttpCase {
  name: string;
  contenders: ConnectContender[];
}

/** Runs the HTTP cases; hands each case's samples to `record`, in order. */
export async function runHttpCases(
  sampling: SamplingOptions,
  record: (c: HttpCase, samples: Awaited<ReturnType<typeof sampleAlternating>>) => void,
): Promise<void> {
  const modern = await serve(createServerHttpHandler(twofoldServer()));
  const legacy = await startSdk1();
  try {
    const modernUrl = modern.url.href;
    const cases: HttpCase[] = [
      {
        name: 'HTTP, modern server (twofold)',
        contenders: [
          { name: 'twofold auto', run: twofoldHttp(modernUrl, {}, 'modern') },
          {
            name: 'twofold pinned modern',
            role: 'pinned',
            run: twofoldHttp(modernUrl, { era: 'modern' }, 'modern'),
          },
          {
            name: 'official 2.4.0 auto',
            role: 'official',
            run: officialHttp(modernUrl, 'modern', true),
          },
          {
            name: 'official 2.4.0 default (legacy)',
            run: officialHttp(modernUrl, 'legacy', false),
          },
        ],
      },
      {
        name: 'HTTP, legacy server (SDK 1.32.2)',
        contenders: [
          { name: 'twofold auto', run: twofoldHttp(legacy.url, {}, 'legacy') },
          {
            name: 'twofold pinned legacy',
            role: 'pinned',
            run: twofoldHttp(legacy.url, { era: 'legacy' }, 'legacy'),
          },
          {
            name: 'official 2.4.0 auto',
            role: 'official',
            run: officialHttp(legacy.url, 'legacy', true),
          },
          {
            name: 'official 2.4.0 default (legacy)',
            run: officialHttp(legacy.url, 'legacy', false),
          },
        ],
      },
    ];
    for (const c of cases) record(c, await sampleAlternating(c.contenders, sampling));
  } finally {
    await legacy.close();
    await modern.close();
  }
}
