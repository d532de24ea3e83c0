import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { McpServer } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import { z } from 'zod';

// One server, written once: modern clients call it statelessly, legacy clients get sessions.
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool({
  name: 'get_forecast',
  description: 'Forecast for a city',
  inputSchema: z.object({ city: z.string() }),
  handler: ({ city }) => `${city}: sunny`,
});
server.registerResource({
  uri: 'weather://cities',
  name: 'cities',
  mimeType: 'text/plain',
  read: (uri) => ({ contents: [{ uri: uri.href, text: 'Lima, Oslo, Paris' }] }),
});
const endpoint = await serveHttp(server, { port: 0 }); // 127.0.0.1, a free port

const client = await McpClient.connect(httpServer({ url: endpoint.url }), {
  clientInfo: { name: 'my-app', version: '1.0.0' },
});
const forecast = await client.callTool('get_forecast', { city: 'Paris' });
const cities = await client.readResource('weather://cities');
console.log(client.era, forecast.content[0], cities.contents[0]);
await client.close();
await endpoint.close();
