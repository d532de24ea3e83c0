/**
 * A tool with an `x-mcp-header` parameter (SEP-2243): the client mirrors `region` into the
 * `Mcp-Param-Region` header, and twofold rejects a request whose header and body disagree.
 */
import type { McpServer } from '@twofold/server/experimental';

export function registerHeaderParamTool(server: McpServer): void {
  server.registerTool({
    name: 'test_header_param',
    description: 'Echoes a region that also travels in the Mcp-Param-Region header',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
    handler: (args) => `Region: ${String(args.region)}`,
  });
}
