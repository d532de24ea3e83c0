import { fileURLToPath } from 'node:url';
import { ServerManager } from '@twofold/registry-adapter/node';

// The servers of an mcp.json (here one: the stdio server of the @twofold/server README),
// supervised, their tools gathered in one registry for the host application.
const weather = fileURLToPath(new URL('./server.stdio.ts', import.meta.url));
const manager = ServerManager.fromConfig({
  mcpServers: { weather: { command: process.execPath, args: [...process.execArgv, weather] } },
});
await manager.start();
const tools = manager.registry.list().map((tool) => tool.name);
const forecast = manager.registry.get('get_forecast');
const outcome = await forecast?.invoke({ city: 'Paris' }, { signal: AbortSignal.timeout(10_000) });
console.log(tools, outcome);
await manager.close();
