import { McpServer } from '@twofold/server/experimental';
import { serveStdio } from '@twofold/server/node';
import { z } from 'zod';

// A server its client starts as a child process; it speaks on stdin/stdout, so log to stderr.
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
await serveStdio(server);
