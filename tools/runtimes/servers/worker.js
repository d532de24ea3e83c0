// Bundled for workerd (Cloudflare Workers): the demo server is built at module scope, where
// Workers forbid random values and I/O, and answers each request in the fetch handler.
import { handler } from './demo-server.js';

export default { fetch: (request) => handler(request) };
