// A hostile MCP server for the client side of the fuzz: it connects like a modern server
// (`server/discover` and `tools/list` answered properly), then answers every `tools/call` the
// way `--mode` says. `node hostile-server.mjs --transport stdio|http --mode <mode>`.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { option } from '../impls/servers/common.mjs';
import { announce, listen, readBody } from '../impls/servers/http-host.mjs';

const mode = option('mode', 'garbage');
/** Notifications a `flood` sends before its answer. */
const FLOOD = 5000;
/** Bytes of the `oversized` answer's text: beyond the 1 MiB the fuzz client accepts. */
const OVERSIZED_TEXT = 2 * 1024 * 1024;

const serverMeta = { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1.0.0' } };
const complete = (result) => ({ ...result, resultType: 'complete', _meta: serverMeta });
const DISCOVER = complete({
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'private',
});
const TOOLS = complete({
  tools: [
    {
      name: 'echo',
      description: 'Answers the given text back.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    },
  ],
  ttlMs: 0,
  cacheScope: 'private',
});

const json = (message) => JSON.stringify(message);
const result = (id, value) => json({ jsonrpc: '2.0', id, result: value });
const echoed = (id, text) => result(id, complete({ content: [{ type: 'text', text }] }));
const log = (n) =>
  json({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

/** What goes back for a `tools/call`: the messages, in order (none: it is never answered). */
function misbehave(id, text) {
  switch (mode) {
    case 'garbage':
      return ['<<this is not JSON>> {"jsonrpc":'];
    case 'duplicate':
      return [echoed(id, text), echoed(id, text)];
    case 'unknown-id':
      return [echoed(`nobody-asked-${String(id)}`, text)];
    case 'silent':
      return [];
    case 'flood':
      return [...Array.from({ length: FLOOD }, (_, n) => log(n)), echoed(id, text)];
    case 'oversized':
      return [echoed(id, 'x'.repeat(OVERSIZED_TEXT))];
    case 'invalid-result':
      return [result(id, { content: 'not a list', resultType: 'complete' })];
    case 'crash':
      process.exit(3);
      return [];
    default:
      throw new Error(`unknown --mode ${mode}`);
  }
}

/** The messages answering `message` (the properly answered ones, or the hostile ones). */
function answer(message) {
  if (message.id === undefined) return [];
  if (message.method === 'server/discover') return [result(message.id, DISCOVER)];
  if (message.method === 'tools/list') return [result(message.id, TOOLS)];
  if (message.method === 'tools/call')
    return misbehave(message.id, message.params?.arguments?.text);
  return [json({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } })];
}

if (option('transport', 'stdio') === 'http') {
  const server = createServer(async (req, res) => {
    const message = JSON.parse((await readBody(req)).toString('utf8'));
    const out = answer(message);
    // Nothing to send: the request is left open, and the client's timeout must end it.
    if (message.id !== undefined && out.length === 0) return;
    if (message.id === undefined) {
      res.writeHead(202).end();
    } else if (out.length === 1) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(out[0]);
    } else {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of out) res.write(`event: message\ndata: ${data}\n\n`);
      res.end();
    }
  });
  announce(await listen(server));
} else {
  createInterface({ input: process.stdin }).on('line', (line) => {
    for (const out of answer(JSON.parse(line))) process.stdout.write(`${out}\n`);
  });
}
