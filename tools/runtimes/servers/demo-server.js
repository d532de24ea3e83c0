// The server every runtime serves, built at module scope as Workers code is (with a fixed
// request-state key, as replicas would share one): an `add` tool, and `grow`, which registers
// one more tool so that a tools list change reaches listeners.
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';

const numbers = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

export const server = new McpServer({
  name: 'runtimes-demo',
  version: '1.0.0',
  requestState: { key: 'runtimes-demo: a test key, not a secret' },
});

server.registerTool({
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: numbers,
  handler: ({ a, b }) => String(a + b),
});

let grown = 0;
server.registerTool({
  name: 'grow',
  description: 'Registers one more tool',
  handler: () => {
    grown += 1;
    server.registerTool({ name: `grown_${grown}`, handler: () => 'grown' });
    return `grown_${grown}`;
  },
});

export const handler = createServerHttpHandler(server);
