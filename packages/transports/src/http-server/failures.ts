/** Handler failures: turning anything thrown into an `Error`, and catching sync and async throws. */

/** Wraps anything thrown into an `Error`, for `onerror` callbacks. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Calls a handler and reports a failure, thrown or rejected, to `onFailure`. */
export function invokeSafely(
  call: () => void | Promise<void>,
  onFailure: (error: unknown) => void,
): void {
  try {
    Promise.resolve(call()).catch(onFailure);
  } catch (error) {
    onFailure(error);
  }
}
