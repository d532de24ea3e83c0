// The official SDK 2.4.0's benchmark server, wired as its documentation shows. stdio:
// `serveStdio(factory)` (both eras). HTTP, `--era modern`: `createMcpHandler(factory, { legacy:
// 'reject' })` mounted with `toNodeHandler` from `@modelcontextprotocol/node` (a fresh server
// per request, by design of that entry). HTTP, `--era legacy`: the sessionful wiring, one
// server and `NodeStreamableHTTPServerTransport` per `Mcp-Session-Id`.
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
  const { createMcpHandler, isInitializeRequest } = await import('@modelcontextprotocol/server');
  const { announce, listen, sessionfulListener } = await import('./http-host.mjs');
  const listener =
    era === 'modern'
      ? node.toNodeHandler(createMcpHandler(createServer, { legacy: 'reject' }))
      : sessionfulListener({
          createTransport: (options) => new node.NodeStreamableHTTPServerTransport(options),
          createServer,
          isInitializeRequest,
        });
  announce(await listen(http.createServer(listener)));
}

if (option('transport', 'stdio') === 'http') {
  await serveHttp(option('era', 'modern'));
} else {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(createServer);
}
