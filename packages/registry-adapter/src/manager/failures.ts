/**
 * How the supervisor reads a failure: whether a restart may mend it, and how a process ended.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { McpConfigError } from '../config/errors';
import { ToolNameConflictError } from '../import/errors';

/** Whether trying again may help: not for configuration, naming or authorization problems. */
export function retryable(error: unknown): boolean {
  if (error instanceof McpConfigError || error instanceof ToolNameConflictError) return false;
  if (!(error instanceof LocalError)) return true;
  return (
    error.code !== LocalErrorCode.Unauthorized && error.code !== LocalErrorCode.AuthorizationFailed
  );
}

/** The exit code and signal of a stdio server that ended, from the close cause. */
export function exitOf(
  cause: Error | undefined,
): { exitCode: number | null; signal: string | null } | undefined {
  if (!(cause instanceof LocalError) || cause.code !== LocalErrorCode.ProcessExited) {
    return undefined;
  }
  const details = cause.details ?? {};
  const exitCode = typeof details.exitCode === 'number' ? details.exitCode : null;
  const signal = typeof details.signal === 'string' ? details.signal : null;
  return { exitCode, signal };
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
