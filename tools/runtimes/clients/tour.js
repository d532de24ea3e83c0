// What every runtime's client does against one server, with the runtime's own fetch: connect
// (the era given, or detected), call `add`, optionally hear a tool added by `grow` (on a modern
// listen or the legacy GET stream), close. Returns a plain report for the test to check.
import { httpServer, McpClient } from '@twofold/client/experimental';

/**
 * @param {{ url: string, sseUrl?: string, era?: 'modern' | 'legacy', grow?: boolean }} run
 */
export async function tour(run) {
  const target = httpServer({ url: run.url, ...(run.sseUrl ? { sseUrl: run.sseUrl } : {}) });
  const client = await McpClient.connect(target, {
    clientInfo: { name: 'runtime-tour', version: '1.0.0' },
    ...(run.era ? { era: run.era } : {}),
  });
  const { era, protocolVersion, transport } = client.verdict;
  const report = { era, protocolVersion, transport };
  try {
    const added = await client.callTool('add', { a: 2, b: 3 });
    report.sum = added.content[0]?.text;
    if (run.grow) {
      const changes = client.listen({ toolsListChanged: true });
      await changes.acknowledged;
      const grown = await client.callTool('grow', {});
      for await (const change of changes) {
        report.heard = change.type;
        break;
      }
      const { tools } = await client.listTools();
      report.grownListed = tools.some((tool) => tool.name === grown.content[0]?.text);
    }
  } finally {
    await client.close();
  }
  report.closed = true;
  return report;
}
