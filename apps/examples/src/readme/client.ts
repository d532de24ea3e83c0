import { fileURLToPath } from 'node:url';
import { McpClient } from '@twofold/client/experimental';
import { stdioServer } from '@twofold/client/node';

// Any MCP server, modern or legacy; here the stdio server of the @twofold/server README.
// For an HTTP one: `httpServer({ url: 'https://mcp.example.com/mcp' })`.
const weather = fileURLToPath(new URL('./server.stdio.ts', import.meta.url));
const client = await McpClient.connect(
  stdioServer({ command: process.execPath, args: [...process.execArgv, weather] }),
  { clientInfo: { name: 'my-app', version: '1.0.0' } },
);
const { tools } = await client.listTools();
const result = await client.callTool('get_forecast', { city: 'Paris' });
console.log(`${client.era} ${client.protocolVersion}, tools: ${tools.map((tool) => tool.name)}`);
console.log(result.content);
await client.close();
