/** `twofold listen`: change notifications as NDJSON, one per line, until interrupted. */
import type { ListenFilter } from '@twofold/client/experimental';
import { type CommandContext, listOption } from '../cli/command';
import { EXIT, type ExitCode } from '../cli/exit-codes';
import { withConnection } from './connect';

export async function run(context: CommandContext): Promise<ExitCode> {
  const resources = listOption(context, 'resource');
  const chosen = ['tools', 'prompts', 'resources'].filter((kind) => context.values[kind] === true);
  const every = chosen.length === 0 && resources.length === 0;
  const filter: ListenFilter = {
    ...(every || chosen.includes('tools') ? { toolsListChanged: true } : {}),
    ...(every || chosen.includes('prompts') ? { promptsListChanged: true } : {}),
    ...(every || chosen.includes('resources') ? { resourcesListChanged: true } : {}),
    ...(resources.length > 0 ? { resourceSubscriptions: resources } : {}),
  };
  return withConnection(context, async ({ client }) => {
    const stream = client.listen(filter, { signal: context.io.interrupt });
    const acknowledged = await stream.acknowledged;
    context.note(context.paintErr.dim(`listening (${describe(acknowledged)}); Ctrl-C to stop`));
    try {
      for await (const change of stream) {
        context.print(`${JSON.stringify({ ...change, at: new Date().toISOString() })}\n`);
      }
    } catch (error) {
      if (context.io.interrupt.aborted) return EXIT.interrupted;
      throw error;
    } finally {
      await stream.close();
    }
    return context.io.interrupt.aborted ? EXIT.interrupted : EXIT.ok;
  });
}

function describe(filter: ListenFilter): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v === true || (Array.isArray(v) && v.length > 0))
    .map(([k, v]) => (Array.isArray(v) ? `${k}: ${v.join(', ')}` : k));
  return parts.length > 0 ? parts.join(', ') : 'nothing the server honours';
}
