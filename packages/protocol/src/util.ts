/**
 * A plain JSON object (not null, not an array).
 *
 * @experimental
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
