/**
 * Helpers every server test file shared: unwrapping a JSON-RPC response into its result or
 * error (failing loudly when it is the other kind), and cleanups run after each test.
 */
import type { JsonRpcResponse } from '@twofold/protocol/experimental';
import { afterEach } from 'vitest';

/** The result of a response; throws when the response is an error. */
export function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  if (!('result' in response)) throw new Error(`expected a result: ${JSON.stringify(response)}`);
  return response.result;
}

/** The error of a response; throws when the response is a result. */
export function errorOf(response: JsonRpcResponse) {
  if (!('error' in response)) throw new Error(`expected an error: ${JSON.stringify(response)}`);
  return response.error;
}

/** Cleanups registered during a test; `useCleanups` runs them after it, newest first. */
export const cleanups: (() => Promise<void>)[] = [];

/** Registers the after-each hook that runs `cleanups` in the calling test file. */
export function useCleanups(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}
