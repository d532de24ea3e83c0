// The floor: a bare newline-JSON echo server in plain Node, no library and no validation. It
// frames stdin in linear time, answers `initialize`, `tools/list` and `tools/call` (any tool:
// `echo` answers its text back) and ignores notifications. Over HTTP it does the same per POST.
// What is left of its cost is the physical limit: process, pipe or socket, JSON.
import { answer, onLines, option, toolCount, toolHeads } from './common.mjs';

const count = toolCount();
const schemaOf = (name) =>
  name === 'echo'
    ? { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
    : { type: 'object', properties: { query: { type: 'string' } } };
const tools = toolHeads(count).map((head) => ({ ...head, inputSchema: schemaOf(head.name) }));

/** The JSON-RPC answer to one parsed message, or undefined for a notification. */
function respond(message) {
  const { id, method, params } = message;
  if (id === undefined) return undefined;
  let result;
  if (method === 'tools/call') {
    result = { content: [{ type: 'text', text: answer(params.name, params.arguments ?? {}) }] };
  } else if (method === 'tools/list') {
    result = { tools };
  } else if (method === 'initialize') {
    result = {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'bench-floor', version: '1.0.0' },
    };
  } else {
    result = {};
  }
  return `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;
}

function serveStdio() {
  onLines(process.stdin, (line) => {
    if (line.length === 0) return;
    const out = respond(JSON.parse(line.toString('utf8')));
    if (out !== undefined) process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
  process.stdout.on('error', () => process.exit(0));
}

async function serveHttp() {
  const http = await import('node:http');
  const { announce, listen, readBody } = await import('./http-host.mjs');
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const out = body.length > 0 ? respond(JSON.parse(body.toString('utf8'))) : undefined;
    if (out === undefined) {
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(out);
  });
  announce(await listen(server));
}

if (option('transport', 'stdio') === 'http') await serveHttp();
else serveStdio();
