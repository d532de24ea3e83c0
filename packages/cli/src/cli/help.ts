/**
 * `--help` text, generated from the command table the entry passes in: the overview, and per
 * command its usage, options and examples.
 */
import { type CommandSpec, optionsOf } from './command';
import { usageError } from './exit-codes';
import type { OptionSpec } from './options';
import type { Paint } from './output';

/** The help for `topic` (command words; empty for the overview) among `commands`. */
export function helpText(
  topic: readonly string[],
  paint: Paint,
  commands: readonly CommandSpec[],
): string {
  if (topic.length === 0) return overview(paint, commands);
  const exact = commands.find((c) => c.path.join(' ') === topic.join(' '));
  if (exact) return commandHelp(exact, paint);
  const group = commands.filter((c) => c.path[0] === topic[0]);
  if (group.length > 0) return groupHelp(topic[0] as string, group, paint);
  throw usageError(`no help for "${topic.join(' ')}": no such command; see twofold --help`);
}

function overview(paint: Paint, commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.path.join(' ').length));
  const lines = [
    `${paint.bold('twofold')} — use, check and bridge any MCP server, modern or legacy`,
    '',
    paint.bold('Usage'),
    '  twofold <command> [arguments] [--url <url> | --stdio "<command>" | --server <name>] [options]',
    '  twofold <command> [arguments] -- <server command> [its arguments]',
    '',
    paint.bold('Commands'),
    ...commands.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    paint.bold('Examples'),
    '  twofold demo',
    '  twofold tools list -- npx -y @modelcontextprotocol/server-everything',
    '  twofold doctor --url http://127.0.0.1:3000/mcp',
    '',
    `Run ${paint.bold('twofold <command> --help')} for a command's options. Exit codes: docs/cli.md.`,
  ];
  return `${lines.join('\n')}\n`;
}

function groupHelp(group: string, commands: readonly CommandSpec[], paint: Paint): string {
  const width = Math.max(...commands.map((c) => c.path.join(' ').length));
  const lines = [
    paint.bold(`twofold ${group}`),
    '',
    ...commands.map((c) => `  twofold ${c.path.join(' ').padEnd(width)}  ${c.summary}`),
  ];
  return `${lines.join('\n')}\n`;
}

function commandHelp(command: CommandSpec, paint: Paint): string {
  const name = `twofold ${command.path.join(' ')}`;
  const target = command.target ? ' [target]' : '';
  const lines = [
    `${paint.bold(name)} — ${command.summary}`,
    '',
    paint.bold('Usage'),
    `  ${name}${command.args ? ` ${command.args}` : ''}${target} [options]`,
  ];
  if (command.details) lines.push('', ...wrap(command.details, 96).map((l) => `  ${l}`));
  lines.push('', paint.bold('Options'), ...optionLines(optionsOf(command)));
  lines.push('', paint.bold('Examples'), ...command.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '';
    const value = spec.value ? ` <${spec.value}>` : '';
    return [`${short}--${name}${value}`, spec.description] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
