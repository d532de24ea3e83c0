/**
 * Tools of the tasks extension scenarios (SEP-2663): a plain tool, long-running ones that the
 * server turns into tasks for clients declaring the extension, tasks that fail either way,
 * tasks that ask for input while they run, and one that gathers input before its task starts.
 */
import { ErrorCode, ProtocolError } from '@twofold/protocol/experimental';
import { InputRequired, type McpServer } from '@twofold/server/experimental';
import { z } from 'zod';
import { elicited } from './answers';
import { askFor } from './input-required';

/** Waits `ms`, or rejects as soon as `signal` aborts (a cancelled task stops its work). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

export function registerTaskTools(server: McpServer): void {
  server.registerTool({
    name: 'greet',
    description: 'Greets someone at once (never a task)',
    inputSchema: z.object({ name: z.string() }),
    handler: ({ name }) => `Hello, ${name}!`,
  });
  server.registerTool({
    name: 'slow_compute',
    description: 'Sleeps `seconds` seconds, then reports; a task for clients that support them',
    inputSchema: z.object({ seconds: z.number().min(0), label: z.string().optional() }),
    taskSupport: 'optional',
    // Nothing to wait for: answered at once, without a task.
    beforeTask: ({ seconds, label }) =>
      seconds === 0 ? `Computed ${label ?? 'result'} at once` : undefined,
    handler: async ({ seconds, label }, { signal, task }) => {
      await task?.reportStatus(`Computing ${label ?? 'result'} for ${seconds} s`);
      await pause(seconds * 1000, signal);
      return `Computed ${label ?? 'result'} after ${seconds} s`;
    },
  });
  server.registerTool({
    name: 'failing_job',
    description: 'Runs only as a task, and ends in a tool error after about a second',
    taskSupport: 'required',
    handler: async (_args, { signal }) => {
      await pause(1000, signal);
      return { content: [{ type: 'text', text: 'The job failed: no such input' }], isError: true };
    },
  });
  server.registerTool({
    name: 'protocol_error_job',
    description: 'A task whose handler fails with a JSON-RPC error',
    taskSupport: 'optional',
    handler: () => {
      throw new ProtocolError(ErrorCode.InternalError, 'The job crashed');
    },
  });
  server.registerTool({
    name: 'confirm_delete',
    description: 'Asks for confirmation (inside its task), then deletes the file',
    inputSchema: z.object({ filename: z.string() }),
    taskSupport: 'optional',
    handler: ({ filename }, { inputResponses }) => {
      const confirmed = elicited(inputResponses, 'confirm', 'confirm');
      if (confirmed === undefined) {
        return new InputRequired({ confirm: askFor(`Delete ${filename}?`, 'confirm', 'boolean') });
      }
      return confirmed === 'true' ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  });
  server.registerTool({
    name: 'multi_input',
    description: 'Asks for a name and a confirmation at once (inside its task)',
    taskSupport: 'optional',
    handler: (_args, { inputResponses }) => {
      const name = elicited(inputResponses, 'name', 'name');
      const confirmed = elicited(inputResponses, 'confirm', 'confirm');
      if (name === undefined || confirmed === undefined) {
        return new InputRequired({
          name: askFor('What is your name?', 'name'),
          confirm: askFor('Go ahead?', 'confirm', 'boolean'),
        });
      }
      return `Hello, ${name} (confirmed: ${confirmed})`;
    },
  });
  server.registerTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name synchronously, then greets in a task',
    taskSupport: 'optional',
    beforeTask: (_args, { inputResponses }) =>
      elicited(inputResponses, 'user_name', 'name') === undefined
        ? new InputRequired({ user_name: askFor('What is your name?', 'name') })
        : undefined,
    handler: (_args, { inputResponses }) =>
      `Hello, ${elicited(inputResponses, 'user_name', 'name')}!`,
  });
}
