/** `twofold tools list` and `twofold tools call <name> [key=value …] [--task]`. */

import type { Progress } from '@twofold/client/experimental';
import { LocalError, LocalErrorCode, type Tool } from '@twofold/protocol/experimental';
import { callArguments } from '../cli/arguments';
import { declared } from '../cli/capabilities';
import { type CommandContext, stringOption } from '../cli/command';
import { CliError, EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json, table } from '../cli/output';
import { firstLine } from '../cli/render';
import { optionalMilliseconds } from '../cli/timeout';
import { type Connection, withConnection } from './connect';
import { followTask, printResult } from './tasks';

export async function run(context: CommandContext): Promise<ExitCode> {
  return context.command.path[1] === 'list' ? list(context) : call(context);
}

async function allTools(connection: Connection): Promise<Tool[]> {
  const tools: Tool[] = [];
  await declared(connection.client, 'tools', async () => {
    for await (const tool of connection.client.iterateTools()) tools.push(tool);
  });
  return tools;
}

async function list(context: CommandContext): Promise<ExitCode> {
  return withConnection(context, async (connection) => {
    const tools = await allTools(connection);
    if (context.json) {
      context.print(json({ tools }));
      return EXIT.ok;
    }
    const rows = tools.map((tool) => [
      tool.name,
      firstLine(tool.title ?? tool.annotations?.title ?? tool.description),
    ]);
    const columns = context.io.stdout.isTTY ? context.io.stdout.columns : undefined;
    context.print(table(['NAME', 'DESCRIPTION'], rows, { paint: context.paint, columns }));
    return EXIT.ok;
  });
}

async function call(context: CommandContext): Promise<ExitCode> {
  const [name, ...words] = context.words;
  if (name === undefined) throw usageError('"twofold tools call" needs the tool name');
  return withConnection(context, async (connection) => {
    const tools = await allTools(connection);
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) {
      const { closestName } = await import('@twofold/registry-adapter/experimental');
      const near = closestName(
        name,
        tools.map((t) => t.name),
      );
      throw new CliError(
        EXIT.dataError,
        `the server has no tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}`,
      );
    }
    const args = await callArguments(
      words,
      {
        args: stringOption(context, 'args'),
        argsFile: stringOption(context, 'args-file'),
        cwd: context.io.cwd,
      },
      tool.inputSchema as Record<string, unknown>,
    );
    const showProgress = !context.json;
    const maxTotalTimeoutMs = optionalMilliseconds(context, 'max-total-timeout');
    const options = {
      timeoutMs: connection.timeoutMs,
      resetTimeoutOnProgress: true,
      ...(maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeoutMs }),
      signal: context.io.interrupt,
      ...(showProgress ? { onProgress: (p: Progress) => connection.progress.update(p) } : {}),
    };
    if (context.values.task === true) {
      const start = await connection.client.startToolTask(name, args, options);
      if (start.task) return followTask(context, connection, start.task, 'call');
      return printResult(context, start.result, `the tool ${name}`);
    }
    const result = await connection.client.callTool(name, args, options).catch((error: unknown) => {
      throw totalTimeoutError(error) ?? error;
    });
    connection.progress.clear();
    return printResult(context, result, `the tool ${name}`);
  });
}

/** A call that progress kept alive past its total cap: said with the option that sets it. */
function totalTimeoutError(error: unknown): CliError | undefined {
  if (!(error instanceof LocalError) || error.code !== LocalErrorCode.RequestTimeout) return;
  const cap = error.details?.maxTotalTimeoutMs;
  if (cap === undefined) return;
  return new CliError(
    EXIT.timeout,
    `the tool call ran past its total time cap of ${cap} ms (--max-total-timeout), though its progress kept resetting --timeout; it was cancelled`,
    { cause: error },
  );
}
