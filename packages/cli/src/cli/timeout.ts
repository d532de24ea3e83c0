/** The `--timeout` option, shared by every command that talks to a server. */
import { type CommandContext, stringOption } from './command';
import { usageError } from './exit-codes';

/** The default connect and request timeout. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The `--timeout` value (default 30 s). */
export function timeoutOf(context: CommandContext): number {
  return millisecondsOption(context, 'timeout', DEFAULT_TIMEOUT_MS);
}

/** The HTTP transport's own default wait for a response to start or a stream to speak. */
const TRANSPORT_SILENCE_MS = 60_000;

/**
 * How long an HTTP response may take to start, or its stream stay silent: at least `--timeout`,
 * which the transport's shorter default would otherwise cut short (a call given 120 s ended at
 * 60 s when the server said nothing meanwhile).
 */
export function httpSilenceOf(context: CommandContext): number {
  return Math.max(timeoutOf(context), TRANSPORT_SILENCE_MS);
}

/**
 * `--probe-timeout`, when given. The probe is part of connecting, which `--timeout` bounds: a
 * longer probe could never end before the connection gives up.
 */
export function probeTimeoutOf(context: CommandContext): number | undefined {
  const probeMs = optionalMilliseconds(context, 'probe-timeout');
  const timeoutMs = timeoutOf(context);
  if (probeMs !== undefined && probeMs > timeoutMs) {
    throw usageError(
      `--probe-timeout (${probeMs} ms) is longer than --timeout (${timeoutMs} ms), which bounds connecting, the probe included`,
    );
  }
  return probeMs;
}

/** A `--<name> <ms>` option: milliseconds > 0, else `fallback` when it is not given. */
export function millisecondsOption(
  context: CommandContext,
  name: string,
  fallback: number,
): number {
  return optionalMilliseconds(context, name) ?? fallback;
}

/** A `--<name> <ms>` option: milliseconds > 0, or undefined when it is not given. */
export function optionalMilliseconds(context: CommandContext, name: string): number | undefined {
  const raw = stringOption(context, name);
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0)
    throw usageError(`--${name} must be milliseconds > 0, not "${raw}"`);
  return ms;
}
