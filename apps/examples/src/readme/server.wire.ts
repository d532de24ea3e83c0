import {
  buildRequestMeta,
  createRequest,
  type JsonRpcMessage,
  LATEST_VERSION,
} from '@twofold/protocol/experimental';
import { McpServer } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import { StreamableHttpClientTransport } from '@twofold/transports/http';
import { z } from 'zod';

// The weather server again, reached by a bare transport instead of McpClient.
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool({
  name: 'get_forecast',
  description: 'Forecast for a city',
  inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7).default(1) }),
  handler: ({ city, days }) => `${city}: sunny for ${days} day(s)`,
});
const endpoint = await serveHttp(server, { port: 0 });

// A modern tools/call by hand; the answer carries resultType, serverInfo and the text.
const client = new StreamableHttpClientTransport({ url: endpoint.url, era: 'modern' });
const answered = new Promise<JsonRpcMessage>((resolve) => {
  client.onmessage = resolve;
});
await client.start();
await client.send(
  createRequest(1, 'tools/call', {
    _meta: buildRequestMeta({ protocolVersion: LATEST_VERSION, clientCapabilities: {} }),
    name: 'get_forecast',
    arguments: { city: 'Paris', days: 2 },
  }),
);
console.log(JSON.stringify(await answered));
await client.close();
await endpoint.close();
