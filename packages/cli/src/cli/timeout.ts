/** The `--timeout` option, shared by every command that talks to a server. */
import { type CommandContext, stringOption } from '../commands/context';
import { usageError } from './exit-codes';

/** The default connect and request timeout. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The `--timeout` value (default 30 s). */
export function timeoutOf(context: CommandContext): number {
  return millisecondsOption(context, 'timeout', DEFAULT_TIMEOUT_MS);
}

/** A `--<name> <ms>` option: milliseconds > 0, else `fallback` when it is not given. */
export function millisecondsOption(
  context: CommandContext,
  name: string,
  fallback: number,
): number {
  const raw = stringOption(context, name);
  if (raw === undefined) return fallback;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0)
    throw usageError(`--${name} must be milliseconds > 0, not "${raw}"`);
  return ms;
}
