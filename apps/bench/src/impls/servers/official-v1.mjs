// The official SDK 1.32.2's benchmark server (legacy era only), wired as its documentation
// shows: `StdioServerTransport`, or on HTTP one server and `StreamableHTTPServerTransport` per
// `Mcp-Session-Id`.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { option, toolCount } from './common.mjs';
import { toolSpecs } from './zod-tools.mjs';

const specs = toolSpecs(toolCount());

function createServer() {
  const server = new McpServer({ name: 'bench-official-v1', version: '1.0.0' });
  for (const spec of specs) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.shape },
      (args) => ({ content: [{ type: 'text', text: spec.handler(args) }] }),
    );
  }
  return server;
}

async function serveHttp() {
  const http = await import('node:http');
  const { StreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/streamableHttp.js'
  );
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const { announce, listen, readBody } = await import('./http-host.mjs');
  const sessions = new Map();
  const listener = async (req, res) => {
    const raw = req.method === 'POST' ? await readBody(req) : undefined;
    const body = raw && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, created),
      });
      created.onclose = () => sessions.delete(created.sessionId);
      await createServer().connect(created);
      transport = created;
    }
    if (!transport) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No session"}}');
      return;
    }
    await transport.handleRequest(req, res, body);
  };
  announce(await listen(http.createServer(listener)));
}

if (option('transport', 'stdio') === 'http') {
  await serveHttp();
} else {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await createServer().connect(new StdioServerTransport());
}
