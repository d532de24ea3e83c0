/** What the config tests share. */
import { McpConfigError } from '../../src/config/errors';

/** The `McpConfigError` that `run` throws; anything else it throws is rethrown. */
export function configErrorOf(run: () => unknown): McpConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error('expected an McpConfigError');
}
