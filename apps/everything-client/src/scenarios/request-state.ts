/**
 * `sep-2322-client-request-state` (2026-07-28): multi-round tool calls. The client must echo
 * `requestState` byte-exact (and send none when the server gave none), use a new JSON-RPC id
 * for each retry, keep one call's round data away from other calls, and take a result without
 * `resultType` as complete. The unrelated call is made while the first call waits for its
 * input, so round data could only leak into it if the client mixed calls up.
 */
import type { McpClient } from '@twofold/client/experimental';
import { type ScenarioRun, textOf, withClient } from '../run';

const TOOLS = ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_no_result_type'];
const UNRELATED_TOOL = 'test_mrtr_unrelated';

export async function requestState(run: ScenarioRun): Promise<void> {
  let client: McpClient | undefined;
  let unrelatedCalled = false;
  const handlers = {
    elicitation: async () => {
      if (client && !unrelatedCalled) {
        unrelatedCalled = true;
        run.log(`${UNRELATED_TOOL}: ${textOf(await client.callTool(UNRELATED_TOOL, {}))}`);
      }
      return { action: 'accept' as const, content: { confirmed: true } };
    },
  };
  await withClient(run, { handlers }, async (connected) => {
    client = connected;
    await connected.listTools();
    for (const tool of TOOLS) run.log(`${tool}: ${textOf(await connected.callTool(tool, {}))}`);
  });
}
