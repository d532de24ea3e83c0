/**
 * `sse-retry`: the server closes the tool call's SSE stream after a priming event with
 * `retry: 500`; the answer only arrives on the GET stream the client must reopen after that
 * delay, sending `Last-Event-ID` (SEP-1699). The call completing is the client's part.
 */
import { type ScenarioRun, textOf, withClient } from '../run';

const TOOL = 'test_reconnection';

export async function sseRetry(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === TOOL)) throw new Error(`the server has no ${TOOL}`);
    run.log(`${TOOL}: ${textOf(await client.callTool(TOOL, {}, { timeoutMs: 15_000 }))}`);
  });
}
