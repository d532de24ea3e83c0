/**
 * `runCli`: one run of the `twofold` command. Parses the command line, loads only the command
 * it names, and turns every failure into one line on stderr and a documented exit code.
 */

import { commandContext } from './cli/command';
import { EXIT, type ExitCode, exitCodeFor, serverRefusal } from './cli/exit-codes';
import { helpText } from './cli/help';
import type { CliIo } from './cli/io';
import { colorFor, paint } from './cli/output';
import { parseCommandLine } from './cli/parse';
import { COMMANDS } from './commands/table';

/**
 * Runs `twofold` with `argv` (the arguments after the program name) in `io`; resolves with
 * the exit code. Never rejects.
 *
 * @experimental
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  try {
    const line = await parseCommandLine(argv, COMMANDS);
    if (line.kind === 'version') {
      io.stdout.write(`${__TWOFOLD_VERSION__}\n`);
      return EXIT.ok;
    }
    if (line.kind === 'help') {
      io.stdout.write(helpText(line.topic, paint(colorFor(io.stdout, io.env)), COMMANDS));
      return EXIT.ok;
    }
    const module = await line.command.load();
    const context = commandContext(io, line.command, line.words, line.rest, line.values);
    return await module.run(context);
  } catch (error) {
    const code = io.interrupt.aborted ? EXIT.interrupted : exitCodeFor(error);
    // Loaded only on failure: a message may quote a URL with credentials (the HTTP stack's own).
    const { redactUrlsIn } = await import('./cli/redact');
    io.stderr.write(`${redactUrlsIn(describe(error, code, verbose))}\n`);
    return code;
  }
}

/** One line (with --verbose, the cause chain and stack too). */
function describe(error: unknown, code: ExitCode, verbose: boolean): string {
  if (code === EXIT.interrupted) return 'twofold: interrupted';
  const message = withRefusal(error instanceof Error ? error.message : String(error), error);
  const line = `twofold: ${message.split('\n').join('\n  ')}`;
  if (!verbose || !(error instanceof Error)) return line;
  const causes: string[] = [];
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 5; depth++) {
    causes.push(`  caused by: ${cause.message}`);
    cause = cause.cause;
  }
  return [line, ...causes, error.stack ?? ''].join('\n');
}

/** A 403 that is not about authorization says so, with what the server answered. */
function withRefusal(message: string, error: unknown): string {
  const refusal = serverRefusal(error);
  if (refusal === undefined) return message;
  const said = refusal.excerpt === '' ? '' : `: "${refusal.excerpt}"`;
  return `${message}: the server refused the request (not an authorization problem)${said}`;
}
