// Shared by the HTTP server fixtures: tells the parent (over the IPC channel) where the server
// listens, answers its `usage` queries (CPU and memory of this process, so CPU per request can
// be measured outside the load generator), and exits when the parent goes away.
import { randomUUID } from 'node:crypto';
import { stats } from './common.mjs';

/** Announces `url` to the parent and serves its side-channel queries. */
export function announce(url) {
  process.on('message', (message) => {
    if (message?.op === 'usage') process.send({ id: message.id, usage: stats(message.gc) });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: url });
}

/** Reads a request body as a Buffer. */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Listens on an ephemeral loopback port; resolves with the endpoint URL. */
export function listen(server, path = '/mcp') {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${server.address().port}${path}`),
    );
  });
}

/**
 * The documented sessionful Streamable HTTP wiring of the official SDKs: one server and one
 * transport (`createTransport(options)`) per `Mcp-Session-Id`, opened by `initialize`.
 */
export function sessionfulListener({ createTransport, createServer, isInitializeRequest }) {
  const sessions = new Map();
  return async (req, res) => {
    const raw = req.method === 'POST' ? await readBody(req) : undefined;
    const body = raw && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      const created = createTransport({
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
