import {
  buildRequestMeta,
  createRequest,
  createResultResponse,
  LATEST_VERSION,
} from '@twofold/protocol/experimental';
import { StreamableHttpClientTransport } from '@twofold/transports/http';
import { createHttpHandler } from '@twofold/transports/http-server';
import { serve } from '@twofold/transports/node';

// A modern Streamable HTTP endpoint on loopback: the core checks Origin, Host, sizes, content
// types and the Mcp-* headers; the handler only answers.
const endpoint = await serve(
  createHttpHandler({
    modern: async (message, exchange) => {
      if (!('id' in message)) return; // notifications were already answered 202
      await exchange.respond(createResultResponse(message.id, { echoed: message.method }));
    },
  }),
);

const client = new StreamableHttpClientTransport({ url: endpoint.url, era: 'modern' });
client.onmessage = (message) => console.log('answer:', JSON.stringify(message));
await client.start();
await client.send(
  createRequest(1, 'tools/list', {
    _meta: buildRequestMeta({ protocolVersion: LATEST_VERSION, clientCapabilities: {} }),
  }),
);
await client.close();
await endpoint.close();
