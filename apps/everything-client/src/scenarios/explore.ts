/**
 * No scenario (`pnpm everything-client <server-url>` by hand): connect and print what the
 * client learned about the server and what it offers.
 */
import { collect, type ScenarioRun, withClient } from '../run';

export async function explore(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const caps = client.serverCapabilities;
    const info = client.serverInfo;
    const lines = [
      `server: ${info ? `${info.name} ${info.version}` : '(no serverInfo)'}`,
      `era: ${client.era}, protocol ${client.protocolVersion}, transport ${client.verdict.transport}`,
      `capabilities: ${Object.keys(caps).join(', ') || '(none)'}`,
    ];
    if (caps.tools) {
      const tools = await collect(client.iterateTools());
      lines.push(`tools (${tools.length}): ${tools.map((tool) => tool.name).join(', ')}`);
    }
    if (caps.resources) {
      const resources = await collect(client.iterateResources());
      lines.push(`resources (${resources.length}): ${resources.map((r) => r.uri).join(', ')}`);
    }
    if (caps.prompts) {
      const prompts = await collect(client.iteratePrompts());
      lines.push(`prompts (${prompts.length}): ${prompts.map((p) => p.name).join(', ')}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}
