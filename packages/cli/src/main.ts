/**
 * `runCli`: one run of the `twofold` command. Parses the command line, loads only the command
 * it names, and turns every failure into one line on stderr and a documented exit code.
 */

import { EXIT, type ExitCode, exitCodeFor } from './cli/exit-codes';
import { helpText } from './cli/help';
import type { CliIo } from './cli/io';
import { colorFor, paint } from './cli/output';
import { parseCommandLine } from './cli/parse';
import { commandContext } from './commands/context';

/**
 * Runs `twofold` with `argv` (the arguments after the program name) in `io`; resolves with
 * the exit code. Never rejects.
 *
 * @experimental
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  try {
    const line = await parseCommandLine(argv);
    if (line.kind === 'version') {
      io.stdout.write(`${__TWOFOLD_VERSION__}\n`);
      return EXIT.ok;
    }
    if (line.kind === 'help') {
      io.stdout.write(helpText(line.topic, paint(colorFor(io.stdout, io.env))));
      return EXIT.ok;
    }
    const module = await line.command.load();
    const context = commandContext(io, line.command, line.words, line.rest, line.values);
    return await module.run(context);
  } catch (error) {
    const code = io.interrupt.aborted ? EXIT.interrupted : exitCodeFor(error);
    io.stderr.write(`${describe(error, code, verbose)}\n`);
    return code;
  }
}

/** One line (with --verbose, the cause chain and stack too). */
function describe(error: unknown, code: ExitCode, verbose: boolean): string {
  if (code === EXIT.interrupted) return 'twofold: interrupted';
  const message = error instanceof Error ? error.message : String(error);
  const line = `twofold: ${message.split('\n').join('\n  ')}`;
  if (!verbose || !(error instanceof Error)) return line;
  const causes: string[] = [];
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 5; depth++) {
    causes.push(`  caused by: ${cause.message}`);
    cause = cause.cause;
  }
  return [line, ...causes, error.stack ?? ''].join('\n');
}
