/** Small helpers every layer of the client uses. */

/** Any thrown value as an `Error`. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** The message of any thrown value. */
export function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}
