/** Small helpers every layer of the client uses. */

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any thrown value as an `Error`. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** The message of any thrown value. */
export function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}
