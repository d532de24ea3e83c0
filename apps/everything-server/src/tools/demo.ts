/** Plain demo tools, for trying the server by hand. */
import type { McpServer } from '@twofold/server/experimental';
import { z } from 'zod';

export function registerDemoTools(server: McpServer): void {
  server.registerTool({
    name: 'echo',
    description: 'Echoes the message back',
    inputSchema: z.object({ message: z.string() }),
    annotations: { readOnlyHint: true },
    handler: ({ message }) => message,
  });
  server.registerTool({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
    annotations: { readOnlyHint: true },
    handler: ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  });
}
