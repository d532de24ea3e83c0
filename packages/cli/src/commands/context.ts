/**
 * What every command gets: the parsed command line, the io, and the output helpers set up
 * for this run (colour decided once).
 */
import type { CliIo } from '../cli/io';
import { colorFor, type Paint, paint } from '../cli/output';
import type { OptionValues } from '../cli/parse';
import type { CommandSpec } from './table';

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
