import { fileURLToPath } from 'node:url';
import { McpClient } from '@twofold/client/experimental';
import { stdioServer } from '@twofold/client/node';

// Starts server.stdio.ts with this process's node and flags (here: tsx's loader), no shell.
const weather = fileURLToPath(new URL('./server.stdio.ts', import.meta.url));
const client = await McpClient.connect(
  stdioServer({ command: process.execPath, args: [...process.execArgv, weather] }),
  { clientInfo: { name: 'my-app', version: '1.0.0' } },
);
const forecast = await client.callTool('get_forecast', { city: 'Paris' });
const cities = await client.readResource('weather://cities');
console.log(client.era, forecast.content[0], cities.contents[0]);
await client.close(); // also stops the server process
