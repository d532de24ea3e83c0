/** `twofold doctor` (wired to its engine in src/doctor). */
import { CliError, EXIT, type ExitCode } from '../cli/exit-codes';
import type { CommandContext } from './context';

export async function run(_context: CommandContext): Promise<ExitCode> {
  throw new CliError(EXIT.internal, 'twofold doctor: the engine is being built');
}
