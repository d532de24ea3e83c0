/** How the Redis stores report failures they handle themselves (they never throw them). */
import type { Redis } from 'ioredis';

/**
 * Receives failures a store handled on its own: a lost connection, a change that could not be
 * published, a message from another process that could not be read.
 *
 * @experimental
 */
export type RedisErrorHandler = (error: Error) => void;

/** The default handler: a Node process warning, which the process prints once per failure. */
export const warnProcess: RedisErrorHandler = (error) => {
  process.emitWarning(error.message, { type: 'TwofoldRedisWarning' });
};

/** `value` as an Error, for handlers that only take errors. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** Reports the first error of each outage of `connection` (ioredis emits one per retry). */
export function reportOutages(connection: Redis, label: string, report: RedisErrorHandler): void {
  let reported = false;
  connection.on('ready', () => {
    reported = false;
  });
  connection.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    report(new Error(`${label}: ${error.message}`));
  });
}
