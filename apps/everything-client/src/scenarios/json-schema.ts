/**
 * The JSON Schema scenarios. `json-schema-ref-no-deref`: list the tools; the client must not
 * fetch the network `$ref` in a schema (SEP-2106). `json-schema-2020-12-preservation`: send
 * the focal tool's `inputSchema` back through the echo tool exactly as the client holds it,
 * so the suite sees whether any 2020-12 keyword was lost (SEP-1613).
 */
import { collect, type ScenarioRun, withClient } from '../run';

const FOCAL_TOOL = 'json_schema_2020_12_tool';
const ECHO_TOOL = 'json_schema_echo';

export async function refNoDeref(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const tools = await collect(client.iterateTools());
    run.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  });
}

export async function schemaPreservation(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const tools = await collect(client.iterateTools());
    const focal = tools.find((tool) => tool.name === FOCAL_TOOL);
    if (!focal) throw new Error(`the server has no ${FOCAL_TOOL}`);
    await client.callTool(ECHO_TOOL, { schema: focal.inputSchema });
    run.log(`${ECHO_TOOL}: sent the ${FOCAL_TOOL} inputSchema back`);
  });
}
