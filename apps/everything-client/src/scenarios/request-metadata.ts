/**
 * `request-metadata` (2026-07-28): every request carries the `MCP-Protocol-Version` header and
 * the `_meta` protocol version, client capabilities and client info (SEP-2575). The server
 * rejects the first request with -32022; the client retries with a version it lists. Every
 * input handler is declared so each capability the suite checks is present.
 */
import { type ScenarioRun, withClient } from '../run';

export async function requestMetadata(run: ScenarioRun): Promise<void> {
  const handlers = {
    elicitation: async () => ({ action: 'decline' as const }),
    sampling: async () => {
      throw new Error('sampling is not offered by the everything client');
    },
    roots: async () => ({ roots: [] }),
  };
  await withClient(run, { handlers }, async (client) => {
    const { tools } = await client.listTools();
    run.log(`tools: ${tools.length}`);
  });
}
