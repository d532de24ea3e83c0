// The official SDK 2.4.0's benchmark server, wired as its documentation shows. stdio:
// `serveStdio(factory)` (both eras). HTTP, `--era modern`: `createMcpHandler(factory, { legacy:
// 'reject' })` mounted with `toNodeHandler` from `@modelcontextprotocol/node` (a fresh server
// per request, by design of that entry); `--prebuilt` gives it the leanest factory its API
// allows (below). HTTP, `--era legacy`: the sessionful wiring, one server and
// `NodeStreamableHTTPServerTransport` per `Mcp-Session-Id`.
import { McpServer } from '@modelcontextprotocol/server';
import { option, toolCount } from './common.mjs';
import { toolSpecs } from './zod-tools.mjs';

const specs = toolSpecs(toolCount());
const SERVER_INFO = { name: 'bench-official-v2', version: '1.0.0' };

function createServer() {
  const server = new McpServer(SERVER_INFO);
  for (const spec of specs) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.schema },
      (args) => ({ content: [{ type: 'text', text: spec.handler(args) }] }),
    );
  }
  return server;
}

/**
 * A zod schema as a Standard Schema whose JSON Schema is converted once: the SDK converts a
 * tool's input to JSON Schema on every fresh instance (for `tools/list`, and for the
 * `Mcp-Param-*` check of every `tools/call`); validation stays zod's own.
 */
function convertedOnce(schema) {
  const standard = schema['~standard'];
  const options = { target: 'draft-2020-12' };
  const input = standard.jsonSchema.input(options);
  const output = standard.jsonSchema.output(options);
  return {
    '~standard': { ...standard, jsonSchema: { input: () => input, output: () => output } },
  };
}

/** Every tool's name, configuration and callback, built once for all the instances. */
const prebuiltTools = specs.map((spec) => ({
  name: spec.name,
  config: { description: spec.description, inputSchema: convertedOnce(spec.schema) },
  callback: (args) => ({ content: [{ type: 'text', text: spec.handler(args) }] }),
}));

/**
 * The per-request factory with nothing built in it but what the SDK requires: a fresh
 * `McpServer` and its tool registrations (they live on the instance). One instance cannot serve
 * every request: `createMcpHandler` refuses an instance still serving another exchange, and its
 * documentation asks for a new one per request, so a shared or pooled instance is outside its
 * contract.
 */
function createPrebuiltServer() {
  const server = new McpServer(SERVER_INFO);
  for (const tool of prebuiltTools) server.registerTool(tool.name, tool.config, tool.callback);
  return server;
}

async function serveHttp(era) {
  const http = await import('node:http');
  const node = await import('@modelcontextprotocol/node');
  const { createMcpHandler, isInitializeRequest } = await import('@modelcontextprotocol/server');
  const { announce, listen, sessionfulListener } = await import('./http-host.mjs');
  const factory = process.argv.includes('--prebuilt') ? createPrebuiltServer : createServer;
  const listener =
    era === 'modern'
      ? node.toNodeHandler(createMcpHandler(factory, { legacy: 'reject' }))
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
