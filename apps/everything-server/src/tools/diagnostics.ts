/**
 * Diagnostic tools the 2026-07-28 stateless scenarios probe: a call that streams progress, one
 * that logs only when the request asked for a log level, and hooks that change the tool and
 * prompt lists so `subscriptions/listen` streams have something to announce.
 */
import type { McpServer } from '@twofold/server/experimental';

export function registerDiagnosticTools(server: McpServer): void {
  server.registerTool({
    name: 'test_streaming_elicitation',
    description: 'Reports progress on the response stream before answering',
    handler: async (_args, context) => {
      await context.progress(50, 100, 'Halfway');
      return 'Streaming complete';
    },
  });
  server.registerTool({
    name: 'test_logging_tool',
    description: 'Logs one info message; sent only when the request asked for a log level',
    handler: async (_args, context) => {
      await context.log('info', 'Diagnostic trace logging activated');
      return 'Logging evaluated';
    },
  });

  // Toggling a placeholder announces a list change without touching the tools under test.
  const placeholderTool = server.registerTool({
    name: 'test_placeholder_tool',
    description: 'Appears and disappears when test_trigger_tool_change runs',
    handler: () => 'placeholder',
  });
  const placeholderPrompt = server.registerPrompt({
    name: 'test_placeholder_prompt',
    description: 'Appears and disappears when test_trigger_prompt_change runs',
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'placeholder' } }] }),
  });
  server.registerTool({
    name: 'test_trigger_tool_change',
    description: 'Changes the tool list (emits notifications/tools/list_changed)',
    handler: () => {
      toggle(placeholderTool);
      return 'Mutation triggered';
    },
  });
  server.registerTool({
    name: 'test_trigger_prompt_change',
    description: 'Changes the prompt list (emits notifications/prompts/list_changed)',
    handler: () => {
      toggle(placeholderPrompt);
      return 'Mutation triggered';
    },
  });
}

function toggle(item: { enabled: boolean; enable(): void; disable(): void }): void {
  if (item.enabled) item.disable();
  else item.enable();
}
