/**
 * `twofold skills list | read <name|uri> [file]`: the server's skills (the
 * io.modelcontextprotocol/skills extension). `read` loads one skill's SKILL.md, or one of its
 * files, verified against the skill's entry (size, digest, frontmatter); nothing else is read.
 */
import { SkillsClient, SkillVerificationError } from '@twofold/client/experimental';
import type { CommandContext } from '../cli/command';
import { CliError, EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json, table } from '../cli/output';
import { firstLine } from '../cli/render';
import { withConnection } from './connect';

const NOT_DECLARED =
  'this server declares no skills (the io.modelcontextprotocol/skills extension)';

export async function run(context: CommandContext): Promise<ExitCode> {
  const read = context.command.path[1] === 'read';
  const [skill, file] = context.words;
  if (read && skill === undefined) {
    throw usageError('"twofold skills read" needs the skill name or SKILL.md URI');
  }
  return withConnection(context, async ({ client, timeoutMs }) => {
    const skills = new SkillsClient(client);
    if (!skills.supported) throw new CliError(EXIT.unavailable, NOT_DECLARED);
    const options = { timeoutMs, signal: context.io.interrupt };
    if (!read) {
      const entries = await skills.list(options);
      if (context.json) context.print(json({ skills: entries }));
      else {
        const rows = entries.map((entry) => [
          entry.frontmatter.name,
          entry.uri,
          entry.resources === 'dynamic' ? 'dynamic' : String(entry.resources.length),
          firstLine(entry.frontmatter.description),
        ]);
        const columns = context.io.stdout.isTTY ? context.io.stdout.columns : undefined;
        context.print(
          table(['NAME', 'URI', 'FILES', 'DESCRIPTION'], rows, { paint: context.paint, columns }),
        );
      }
      return EXIT.ok;
    }
    try {
      const loaded = await skills.load(skill as string, options);
      const content =
        file === undefined ? loaded.manifest : await skills.readFile(loaded.entry, file, options);
      if (context.json) {
        context.print(json(file === undefined ? loaded : { entry: loaded.entry, file: content }));
      } else if (content.text !== undefined) {
        context.print(content.text.endsWith('\n') ? content.text : `${content.text}\n`);
      } else {
        const what = `${content.uri}: ${content.mimeType ?? 'binary'}, ${content.bytes.length} bytes (--json for the data)`;
        context.print(`${context.paint.dim(what)}\n`);
      }
      return EXIT.ok;
    } catch (error) {
      if (error instanceof SkillVerificationError) {
        throw new CliError(EXIT.dataError, `refused: ${error.message}`, { cause: error });
      }
      if (error instanceof RangeError) throw new CliError(EXIT.unavailable, error.message);
      throw error;
    }
  });
}
