/**
 * A plain JSON object (not null, not an array).
 *
 * @experimental
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A shallow copy of `source`, for a copy that is then extended. On Node 20 (V8 11), an object
 * made by spread and then given new properties is kept through the next minor collection and
 * promoted to the old generation with what it points to; `Object.assign` onto a new object is
 * not (measured in isolation: about 190 bytes promoted per copy against 4; Node 22 promotes
 * neither). On a path run for every message that made each collection keep them all.
 *
 * @experimental
 */
export function shallowCopy<T extends object>(source: T): T {
  return Object.assign({}, source);
}
