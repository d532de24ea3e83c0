import {
  buildRequestMeta,
  createRequest,
  type JsonRpcMessage,
  LATEST_VERSION,
} from '@twofold/protocol/experimental';
import { createServerHttpHandler, McpServer } from '@twofold/server/experimental';
import { StreamableHttpClientTransport } from '@twofold/transports/http';
import { serve } from '@twofold/transports/node';
import { z } from 'zod';

// One server, written once: modern clients call it statelessly, legacy clients get sessions.
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool({
  name: 'get_forecast',
  description: 'Forecast for a city',
  inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7).default(1) }),
  handler: ({ city, days }) => `${city}: sunny for ${days} day(s)`,
});
const endpoint = await serve(createServerHttpHandler(server));

// A modern client's tools/call, answered with resultType, serverInfo and the text result.
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
