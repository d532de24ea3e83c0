/** `twofold prompts list | get <name> [key=value …]`. */
import type { Prompt } from '@twofold/protocol/experimental';
import { declared } from '../cli/capabilities';
import type { CommandContext } from '../cli/command';
import { EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json, table } from '../cli/output';
import { firstLine, renderBlock } from '../cli/render';
import { withConnection } from './connect';

export async function run(context: CommandContext): Promise<ExitCode> {
  return context.command.path[1] === 'get' ? get(context) : list(context);
}

async function list(context: CommandContext): Promise<ExitCode> {
  return withConnection(context, async ({ client }) => {
    const prompts: Prompt[] = [];
    await declared(client, 'prompts', async () => {
      for await (const prompt of client.iteratePrompts()) prompts.push(prompt);
    });
    if (context.json) {
      context.print(json({ prompts }));
      return EXIT.ok;
    }
    const rows = prompts.map((p) => [
      p.name,
      (p.arguments ?? []).map((a) => (a.required ? `${a.name}*` : a.name)).join(' '),
      firstLine(p.title ?? p.description),
    ]);
    const columns = context.io.stdout.isTTY ? context.io.stdout.columns : undefined;
    context.print(
      table(['NAME', 'ARGUMENTS', 'DESCRIPTION'], rows, { paint: context.paint, columns }),
    );
    return EXIT.ok;
  });
}

async function get(context: CommandContext): Promise<ExitCode> {
  const [name, ...words] = context.words;
  if (name === undefined) throw usageError('"twofold prompts get" needs the prompt name');
  const args: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw usageError(`arguments are key=value, not "${word}"`);
    args[word.slice(0, at)] = word.slice(at + 1);
  }
  return withConnection(context, async ({ client, timeoutMs }) => {
    const result = await declared(client, 'prompts', () =>
      client.getPrompt(name, args, { timeoutMs, signal: context.io.interrupt }),
    );
    if (context.json) {
      context.print(json(result));
      return EXIT.ok;
    }
    if (result.description) context.print(`${context.paint.dim(result.description)}\n`);
    for (const message of result.messages) {
      const text = renderBlock(message.content as Record<string, unknown>, context.paint);
      context.print(`${context.paint.bold(`${message.role}:`)} ${text}\n`);
    }
    return EXIT.ok;
  });
}
