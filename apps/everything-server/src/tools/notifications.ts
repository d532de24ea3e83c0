/** Tools that talk while they run: log messages and progress. */
import type { McpServer } from '@twofold/server/experimental';

// Spaced out so a client sees the messages arrive during the call, not in one burst.
const STEP_MS = 50;
const pause = () => new Promise((resolve) => setTimeout(resolve, STEP_MS));

export function registerNotificationTools(server: McpServer): void {
  server.registerTool({
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs',
    handler: async (_args, context) => {
      await context.log('info', 'Tool execution started');
      await pause();
      await context.log('info', 'Tool processing data');
      await pause();
      await context.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  });
  server.registerTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 while it runs',
    handler: async (_args, context) => {
      for (const step of [0, 50, 100]) {
        if (step > 0) await pause();
        await context.progress(step, 100, `Completed step ${step} of 100`);
      }
      return 'Progress reported';
    },
  });
}
