// Types of demo-server.js, for the Node-side tests that serve it themselves.
import type { McpServer } from '@twofold/server/experimental';

export const server: McpServer;
export const handler: (request: Request) => Promise<Response>;
