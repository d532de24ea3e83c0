/**
 * Servers whose tools say who they are: each answers `{server}:{tool}:{message}`, so a test can
 * tell which server a host tool reached. No test-runner imports: stdio fixtures use it too.
 */
import { McpServer } from '@twofold/server/experimental';

export const MESSAGE_INPUT = {
  type: 'object',
  properties: { message: { type: 'string' } },
} as const;

/** Registers `tool` on `server`: it answers `{server}:{tool}:{message}`. */
export function addNamedTool(server: McpServer, tool: string) {
  return server.registerTool({
    name: tool,
    description: `${tool} of ${server.serverInfo.name}`,
    inputSchema: MESSAGE_INPUT,
    handler: (args: { message?: string }) =>
      `${server.serverInfo.name}:${tool}:${args.message ?? ''}`,
  });
}

/** A server named `name` offering `tools` (see `addNamedTool`). */
export function namedServer(name: string, tools: readonly string[]): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  for (const tool of tools) addNamedTool(server, tool);
  return server;
}
