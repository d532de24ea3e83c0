/**
 * `test_reconnection`, the tool of the suite's `server-sse-polling` scenario (SEP-1699): on a
 * resumable legacy HTTP stream it closes the call's SSE stream before it answers, so the client
 * must reconnect with `Last-Event-ID` to get the result. Elsewhere it just answers.
 */
import type { McpServer } from '@twofold/server/experimental';

// Long enough that the result is sent after the stream has closed, not in the same turn.
const AFTER_CLOSE_MS = 100;

export function registerSsePollingTool(server: McpServer): void {
  server.registerTool({
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call, then answers on the resumed stream',
    handler: async (_args, context) => {
      if (context.closeSseStream === undefined) return 'No resumable stream to close';
      await context.closeSseStream();
      await new Promise((resolve) => setTimeout(resolve, AFTER_CLOSE_MS));
      return 'Reconnection test completed';
    },
  });
}
