// Run by `deno`: serves the demo server on a free loopback port and prints its URL.
import { handler } from './demo-server.js';

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`http://127.0.0.1:${port}/mcp`),
  },
  handler,
);
