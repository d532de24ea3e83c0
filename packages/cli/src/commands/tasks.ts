/**
 * Tasks (the io.modelcontextprotocol/tasks extension): `twofold tools call --task` follows the
 * task the server makes of a call with a live status line, and Ctrl-C cancels it; `twofold
 * tasks get | wait | cancel <taskId>` reach a task started earlier, by this or another run.
 */
import type { ToolTask } from '@twofold/client/experimental';
import type { CallToolResult, DetailedTask } from '@twofold/protocol/experimental';
import type { CommandContext } from '../cli/command';
import { EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json } from '../cli/output';
import { renderContent } from '../cli/render';
import { type Connection, withConnection } from './connect';

/** `twofold tasks get | wait | cancel <taskId>`. */
export async function run(context: CommandContext): Promise<ExitCode> {
  const action = context.command.path[1];
  const [taskId] = context.words;
  if (taskId === undefined) throw usageError(`"twofold tasks ${action}" needs the task id`);
  return withConnection(context, async (connection) => {
    const options = { timeoutMs: connection.timeoutMs, signal: context.io.interrupt };
    const task = await connection.client.resumeToolTask(taskId, options);
    if (action === 'cancel') {
      await task.cancel();
      context.note(`asked the server to cancel task ${taskId}`);
      return EXIT.ok;
    }
    if (action === 'get') {
      context.print(context.json ? json(task.state) : `${describeState(task.state)}\n`);
      return EXIT.ok;
    }
    return followTask(context, connection, task, 'wait');
  });
}

/**
 * Follows `task` to its end with a status line on stderr and prints its result as `tools call`
 * would. Ctrl-C (`interrupt`) cancels the task when this run started it (`tools call --task`);
 * `tasks wait` only stops waiting.
 */
export async function followTask(
  context: CommandContext,
  connection: Connection,
  task: ToolTask,
  mode: 'call' | 'wait',
): Promise<ExitCode> {
  const status = statusLine(context, connection);
  status(`task ${task.taskId} started`);
  const interrupt = context.io.interrupt;
  // Ctrl-C must still reach the server as the task's cancellation.
  if (mode === 'call') connection.handleInterrupt();
  const following = (async () => {
    for await (const state of task.updates()) status(describeState(state));
  })();
  const stop = new Promise<void>((resolve) => {
    if (interrupt.aborted) resolve();
    else interrupt.addEventListener('abort', () => resolve(), { once: true });
  });
  const ended = await Promise.race([
    following.then(() => 'ended' as const),
    stop.then(() => 'stopped' as const),
  ]);
  connection.progress.clear();
  if (ended === 'stopped') {
    if (mode === 'call') {
      await task.cancel();
      context.note(`cancelled task ${task.taskId}`);
    } else context.note(`stopped waiting; task ${task.taskId} goes on`);
    return EXIT.interrupted;
  }
  return printResult(context, await task.result(), task.taskId);
}

/** A tool result on stdout (JSON with `--json`); exit 1 for an error result. */
export function printResult(
  context: CommandContext,
  result: CallToolResult,
  what: string,
): ExitCode {
  if (context.json) context.print(json(result));
  else {
    const text = renderContent(result.content, context.paint);
    const structured = result.structuredContent;
    if (text !== '') context.print(`${text}\n`);
    else if (structured !== undefined) context.print(json(structured));
    if (result.isError) context.note(context.paintErr.red(`${what} returned an error`));
  }
  return result.isError ? EXIT.toolError : EXIT.ok;
}

/** `working: compiling` — the status, and the server's message when it gave one. */
function describeState(state: DetailedTask): string {
  return `${state.taskId} ${state.status}${state.statusMessage ? `: ${state.statusMessage}` : ''}`;
}

/**
 * Shows each new status: the progress line redrawn in place on a terminal, else a line per
 * change on stderr; nothing with --json.
 */
function statusLine(context: CommandContext, connection: Connection): (text: string) => void {
  const terminal = context.io.stderr.isTTY === true;
  let last = '';
  return (text) => {
    if (text === last || context.json) return;
    last = text;
    // Unpainted on the terminal line: cutting it to the width must not cut an escape code.
    if (terminal) connection.progress.line(text);
    else context.note(context.paintErr.dim(text));
  };
}
