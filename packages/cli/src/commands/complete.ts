/** `twofold complete --prompt <name> | --resource <template> <argument>=<partial>`. */
import { declared } from '../cli/capabilities';
import { type CommandContext, listOption, stringOption } from '../cli/command';
import { EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json } from '../cli/output';
import { withConnection } from './connect';

export async function run(context: CommandContext): Promise<ExitCode> {
  const prompt = stringOption(context, 'prompt');
  const resource = stringOption(context, 'resource');
  if ((prompt === undefined) === (resource === undefined)) {
    throw usageError(
      '"twofold complete" needs one of --prompt <name> or --resource <uri template>',
    );
  }
  const [pair] = context.words;
  const at = pair?.indexOf('=') ?? -1;
  if (pair === undefined || at <= 0)
    throw usageError('"twofold complete" needs <argument>=<partial value>');
  const known: Record<string, string> = {};
  for (const item of listOption(context, 'context')) {
    const split = item.indexOf('=');
    if (split <= 0) throw usageError(`--context must be NAME=value, not "${item}"`);
    known[item.slice(0, split)] = item.slice(split + 1);
  }
  const ref =
    prompt !== undefined
      ? { type: 'ref/prompt' as const, name: prompt }
      : { type: 'ref/resource' as const, uri: resource as string };
  return withConnection(context, async ({ client, timeoutMs }) => {
    const result = await declared(client, 'completions', () =>
      client.complete(
        {
          ref,
          argument: { name: pair.slice(0, at), value: pair.slice(at + 1) },
          ...(Object.keys(known).length > 0 ? { context: { arguments: known } } : {}),
        },
        { timeoutMs },
      ),
    );
    if (context.json) context.print(json(result));
    else {
      for (const value of result.completion.values) context.print(`${value}\n`);
      if (result.completion.hasMore)
        context.print(`${context.paint.dim(`… ${result.completion.total ?? 'more'} in all`)}\n`);
    }
    return EXIT.ok;
  });
}
