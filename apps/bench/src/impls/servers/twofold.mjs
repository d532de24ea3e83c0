// twofold's benchmark server: one long-lived `McpServer` (both eras, its default) on stdio or
// on loopback HTTP. `node twofold.mjs --transport stdio|http --tools 2|50`.
import { McpServer } from '@twofold/server/experimental';
import { option, toolCount } from './common.mjs';
import { toolSpecs } from './zod-tools.mjs';

const server = new McpServer({ name: 'bench-twofold', version: '1.0.0' });
for (const spec of toolSpecs(toolCount())) {
  server.registerTool({
    name: spec.name,
    description: spec.description,
    inputSchema: spec.schema,
    handler: spec.handler,
  });
}

if (option('transport', 'stdio') === 'http') {
  // Imported only here: a stdio server does not load the HTTP stack.
  const [{ createServerHttpHandler }, { serve }, { announce }] = await Promise.all([
    import('@twofold/server/experimental'),
    import('@twofold/transports/node'),
    import('./http-host.mjs'),
  ]);
  const endpoint = await serve(createServerHttpHandler(server));
  announce(endpoint.url.href);
} else {
  const { serveStdio } = await import('@twofold/server/node');
  await serveStdio(server);
}
