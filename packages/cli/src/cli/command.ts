/**
 * What a command is (its spec: words, help, options, loader) and what it gets when it runs
 * (the parsed command line, the io, and the output helpers set up for this run, colour decided
 * once). The command table itself is in ../commands/table.ts.
 */
import type { ExitCode } from './exit-codes';
import type { CliIo } from './io';
import { AUTH_OPTIONS, type OptionSpec, OUTPUT_OPTIONS, TARGET_OPTIONS } from './options';
import { colorFor, type Paint, paint } from './output';

/** Option values as parsed: strings, booleans, or lists for repeatable options. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** What a command module exports. */
export interface CommandModule {
  run(context: CommandContext): Promise<ExitCode>;
}

/**
 * One command.
 *
 * @experimental
 */
export interface CommandSpec {
  /** Its words: `['tools', 'call']`. */
  path: readonly string[];
  summary: string;
  /** The arguments after the words, as help shows them. */
  args?: string;
  /** Whether it talks to a server (then the target options apply). */
  target: boolean;
  options?: Record<string, OptionSpec>;
  examples: readonly string[];
  details?: string;
  load(): Promise<CommandModule>;
}

/**
 * One run of one command.
 *
 * @experimental
 */
export interface CommandContext {
  io: CliIo;
  command: CommandSpec;
  /** The words after the command's own (`tools call <these>`). */
  words: string[];
  /** Everything after `--`. */
  rest: string[];
  values: OptionValues;
  json: boolean;
  verbose: boolean;
  /** Whether stdout is coloured (a terminal, and no `NO_COLOR`). */
  color: boolean;
  /** Styles for stdout and for stderr (each on only where that stream is a terminal). */
  paint: Paint;
  paintErr: Paint;
  /** Writes to stdout / stderr. */
  print(text: string): void;
  note(text: string): void;
}

/** Builds the context of a run. */
export function commandContext(
  io: CliIo,
  command: CommandSpec,
  words: string[],
  rest: string[],
  values: OptionValues,
): CommandContext {
  const color = colorFor(io.stdout, io.env);
  return {
    io,
    command,
    words,
    rest,
    values,
    json: values.json === true,
    verbose: values.verbose === true,
    color,
    paint: paint(color),
    paintErr: paint(colorFor(io.stderr, io.env)),
    print: (text) => io.stdout.write(text),
    note: (text) => io.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

/** A string option's value, if given. */
export function stringOption(context: CommandContext, name: string): string | undefined {
  const value = context.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable option's values. */
export function listOption(context: CommandContext, name: string): string[] {
  const value = context.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/**
 * The options a command accepts: its own, the target and authorization options when it talks
 * to a server, and the output options.
 *
 * @experimental
 */
export function optionsOf(command: CommandSpec): Record<string, OptionSpec> {
  return {
    ...(command.target ? { ...TARGET_OPTIONS, ...AUTH_OPTIONS } : {}),
    ...command.options,
    ...OUTPUT_OPTIONS,
  };
}
