/** Typical messages: a tools/call request, a 100-tool list result, a 1 MiB text result. */
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
};

export const toolsCallRequest = JSON.stringify({
  jsonrpc: '2.0',
  id: 42,
  method: 'tools/call',
  params: {
    _meta: meta,
    name: 'get_weather',
    arguments: { location: 'Paris', units: 'metric', days: 3 },
  },
});

function tool(i: number) {
  return {
    name: `tool_${i}`,
    title: `Tool number ${i}`,
    description: `Does thing ${i} with the given input and returns a short report.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for' },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
        verbose: { type: 'boolean' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: i % 2 === 0, openWorldHint: false },
  };
}

export const toolsListResult = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  result: {
    resultType: 'complete',
    tools: Array.from({ length: 100 }, (_, i) => tool(i)),
    ttlMs: 60_000,
    cacheScope: 'public',
  },
});

export const largeTextResult = JSON.stringify({
  jsonrpc: '2.0',
  id: 8,
  result: { resultType: 'complete', content: [{ type: 'text', text: 'x'.repeat(1024 * 1024) }] },
});
