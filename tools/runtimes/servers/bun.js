// Run by `bun`: serves the demo server on a free loopback port and prints its URL.
import { handler } from './demo-server.js';

const served = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
console.log(`http://127.0.0.1:${served.port}/mcp`);
