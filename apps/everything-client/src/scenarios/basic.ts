/**
 * `initialize` and `tools_call`: connect (the suite checks the handshake or the per-request
 * `_meta`), list the tools and call `add_numbers` when the server offers it.
 */
import { collect, type ScenarioRun, textOf, withClient } from '../run';

export async function basic(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const tools = await collect(client.iterateTools());
    run.log(`tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
    if (tools.some((tool) => tool.name === 'add_numbers')) {
      run.log(`add_numbers: ${textOf(await client.callTool('add_numbers', { a: 2, b: 3 }))}`);
    }
  });
}
