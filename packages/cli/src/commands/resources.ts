/** `twofold resources list | templates | read <uri>`. */
import type { Resource, ResourceTemplate } from '@twofold/protocol/experimental';
import { declared } from '../cli/capabilities';
import type { CommandContext } from '../cli/command';
import { EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json, table } from '../cli/output';
import { base64Bytes, firstLine } from '../cli/render';
import { withConnection } from './connect';

export async function run(context: CommandContext): Promise<ExitCode> {
  const verb = context.command.path[1];
  if (verb === 'read') return read(context);
  return withConnection(context, async ({ client }) => {
    const columns = context.io.stdout.isTTY ? context.io.stdout.columns : undefined;
    if (verb === 'templates') {
      const templates: ResourceTemplate[] = [];
      await declared(
        client,
        'resources',
        async () => {
          for await (const template of client.iterateResourceTemplates()) templates.push(template);
        },
        'resources (so no resource templates)',
      );
      if (context.json) context.print(json({ resourceTemplates: templates }));
      else {
        const rows = templates.map((t) => [
          t.uriTemplate,
          t.name,
          firstLine(t.title ?? t.description),
        ]);
        context.print(
          table(['URI TEMPLATE', 'NAME', 'DESCRIPTION'], rows, { paint: context.paint, columns }),
        );
      }
      return EXIT.ok;
    }
    const resources: Resource[] = [];
    await declared(client, 'resources', async () => {
      for await (const resource of client.iterateResources()) resources.push(resource);
    });
    if (context.json) context.print(json({ resources }));
    else {
      const rows = resources.map((r) => [
        r.uri,
        r.name,
        r.mimeType ?? '',
        firstLine(r.title ?? r.description),
      ]);
      context.print(
        table(['URI', 'NAME', 'TYPE', 'DESCRIPTION'], rows, { paint: context.paint, columns }),
      );
    }
    return EXIT.ok;
  });
}

async function read(context: CommandContext): Promise<ExitCode> {
  const [uri] = context.words;
  if (uri === undefined) throw usageError('"twofold resources read" needs the resource URI');
  return withConnection(context, async ({ client, timeoutMs }) => {
    const result = await declared(client, 'resources', () =>
      client.readResource(uri, { timeoutMs, signal: context.io.interrupt }),
    );
    if (context.json) {
      context.print(json(result));
      return EXIT.ok;
    }
    for (const content of result.contents as Record<string, unknown>[]) {
      if (typeof content.text === 'string')
        context.print(content.text.endsWith('\n') ? content.text : `${content.text}\n`);
      else {
        const what = `${String(content.uri)}: ${String(content.mimeType ?? 'binary')}, ${base64Bytes(content.blob)} bytes (--json for the data)`;
        context.print(`${context.paint.dim(what)}\n`);
      }
    }
    return EXIT.ok;
  });
}
