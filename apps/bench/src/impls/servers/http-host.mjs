// Shared by the HTTP server fixtures: tells the parent (over the IPC channel) where the server
// listens, answers its `usage` queries (CPU and memory of this process, so CPU per request can
// be measured outside the load generator), and exits when the parent goes away.
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
