// twofold's benchmark server: one long-lived `McpServer` (both eras, its default) on stdio or
// on loopback HTTP. `node twofold.mjs --transport stdio|http --tools 2|50 [--json-schema]`.
// Its tools take zod schemas, as the official servers' do; `--json-schema` gives them the same
// inputs in JSON Schema, so that the process loads no zod (twofold needs none of its own).
import { option, toolCount } from './common.mjs';

// Loaded side by side, as static imports would be.
const [{ McpServer }, specs] = await Promise.all([
  import('@twofold/server/experimental'),
  process.argv.includes('--json-schema')
    ? import('./json-tools.mjs').then((tools) => tools.jsonToolSpecs(toolCount()))
    : import('./zod-tools.mjs').then((tools) => tools.toolSpecs(toolCount())),
]);
const server = new McpServer({ name: 'bench-twofold', version: '1.0.0' });
for (const spec of specs) {
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
    import('@twofold/server/http'),
    import('@twofold/transports/node'),
    import('./http-host.mjs'),
  ]);
  const endpoint = await serve(createServerHttpHandler(server));
  announce(endpoint.url.href);
} else {
  const { serveStdio } = await import('@twofold/server/node');
  await serveStdio(server);
}
