// The official SDK 1.32.2's benchmark server (legacy era only), wired as its documentation
// shows: `StdioServerTransport`, or on HTTP one server and `StreamableHTTPServerTransport` per
// `Mcp-Session-Id`.
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
  const { announce, listen, sessionfulListener } = await import('./http-host.mjs');
  const listener = sessionfulListener({
    createTransport: (options) => new StreamableHTTPServerTransport(options),
    createServer,
    isInitializeRequest,
  });
  announce(await listen(http.createServer(listener)));
}

if (option('transport', 'stdio') === 'http') {
  await serveHttp();
} else {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await createServer().connect(new StdioServerTransport());
}
