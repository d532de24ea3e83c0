// The official SDK 2.4.0's benchmark server, wired as its documentation shows. stdio:
// `serveStdio(factory)` (both eras). HTTP, `--era modern`: `createMcpHandler(factory, { legacy:
// 'reject' })` mounted with `toNodeHandler` from `@modelcontextprotocol/node` (a fresh server
// per request, by design of that entry). HTTP, `--era legacy`: the sessionful wiring, one
// server and `NodeStreamableHTTPServerTransport` per `Mcp-Session-Id`.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import { option, toolCount } from './common.mjs';
import { toolSpecs } from './zod-tools.mjs';

const specs = toolSpecs(toolCount());

function createServer() {
  const server = new McpServer({ name: 'bench-official-v2', version: '1.0.0' });
  for (const spec of specs) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.schema },
      (args) => ({ content: [{ type: 'text', text: spec.handler(args) }] }),
    );
  }
  return server;
}

async function serveHttp(era) {
  const http = await import('node:http');
  const node = await import('@modelcontextprotocol/node');
  const { announce, listen, readBody } = await import('./http-host.mjs');
  let listener;
  if (era === 'modern') {
    const { createMcpHandler } = await import('@modelcontextprotocol/server');
    listener = node.toNodeHandler(createMcpHandler(createServer, { legacy: 'reject' }));
  } else {
    const { isInitializeRequest } = await import('@modelcontextprotocol/server');
    const sessions = new Map();
    listener = async (req, res) => {
      const raw = req.method === 'POST' ? await readBody(req) : undefined;
      const body = raw && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport && isInitializeRequest(body)) {
        const created = new node.NodeStreamableHTTPServerTransport({
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
  }
  announce(await listen(http.createServer(listener)));
}

if (option('transport', 'stdio') === 'http') {
  await serveHttp(option('era', 'modern'));
} else {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(createServer);
}
