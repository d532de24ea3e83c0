/**
 * From argv to a command of the table the entry passes in: the words pick the command (longest
 * match), then its options are parsed strictly. Everything after `--` is kept as is (the stdio
 * server's command line).
 */
import { parseArgs } from 'node:util';
import { type CommandSpec, type OptionValues, optionsOf } from './command';
import { usageError } from './exit-codes';
import type { OptionSpec } from './options';

/** What a command line asks for. */
export type CommandLine =
  | { kind: 'run'; command: CommandSpec; words: string[]; values: OptionValues; rest: string[] }
  | { kind: 'help'; topic: string[] }
  | { kind: 'version' };

/**
 * Parses argv (without node and the script) against `commands`. Throws a usage error
 * (`CliError`, exit 64).
 */
export async function parseCommandLine(
  argv: readonly string[],
  commands: readonly CommandSpec[],
): Promise<CommandLine> {
  const split = argv.indexOf('--');
  const main = split < 0 ? [...argv] : argv.slice(0, split);
  const rest = split < 0 ? [] : argv.slice(split + 1);
  const loose = parseArgs({
    args: main,
    options: allOptions(commands),
    strict: false,
    allowPositionals: true,
  });
  const words = loose.positionals;
  if (loose.values.version === true && words.length === 0) return { kind: 'version' };
  if (words[0] === 'help') return { kind: 'help', topic: words.slice(1) };
  if (words.length === 0) return { kind: 'help', topic: [] };
  const command = await findCommand(words, commands);
  if (loose.values.help === true) return { kind: 'help', topic: [...command.path] };
  const values = await strictValues(command, main);
  return { kind: 'run', command, words: words.slice(command.path.length), values, rest };
}

/** The command whose words start `words`, longest first. */
async function findCommand(
  words: readonly string[],
  commands: readonly CommandSpec[],
): Promise<CommandSpec> {
  const matches = commands.filter((c) => c.path.every((word, i) => words[i] === word));
  const best = matches.sort((a, b) => b.path.length - a.path.length)[0];
  if (best) return best;
  const [first = '', second] = words;
  if (commands.some((c) => c.path.length > 1 && c.path[0] === first)) {
    const subs = commands.filter((c) => c.path[0] === first).map((c) => c.path[1] as string);
    const what = second === undefined ? 'needs a subcommand' : `has no subcommand "${second}"`;
    throw usageError(`"twofold ${first}" ${what}: ${subs.join(', ')}`);
  }
  const known = [...new Set(commands.map((c) => c.path[0] as string))];
  throw usageError(
    `unknown command "${first}"${await suggestion(first, known)}; see twofold --help`,
  );
}

async function strictValues(command: CommandSpec, args: string[]): Promise<OptionValues> {
  const specs = optionsOf(command);
  try {
    const { values } = parseArgs({
      args,
      options: toParseArgs(specs),
      strict: true,
      allowPositionals: true,
    });
    return values as OptionValues;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
    const name = command.path.join(' ');
    if (unknown !== undefined) {
      const flags = Object.keys(specs).map((flag) => `--${flag}`);
      const near = await suggestion(unknown, flags);
      throw usageError(`unknown option ${unknown} for "twofold ${name}"${near}`);
    }
    throw usageError(`${message.replace(/\.$/, '')} (twofold ${name})`);
  }
}

/** Every option any command has, for finding the words before the command is known. */
function allOptions(commands: readonly CommandSpec[]) {
  const specs: Record<string, OptionSpec> = {};
  for (const command of commands) Object.assign(specs, optionsOf(command));
  return { ...toParseArgs(specs), version: { type: 'boolean' as const } };
}

function toParseArgs(specs: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.multiple ? { multiple: true } : {}),
        ...(spec.short ? { short: spec.short } : {}),
      },
    ]),
  );
}

/** ` (did you mean "x"?)` for a near miss, else nothing. Loaded only on this error path. */
async function suggestion(word: string, candidates: readonly string[]): Promise<string> {
  const { closestName } = await import('@twofold/registry-adapter/experimental');
  const near = closestName(word, candidates);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
