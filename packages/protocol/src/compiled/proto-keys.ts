/**
 * zod leaves an own `__proto__` key out of what an object or record schema returns (copying it
 * into a plain object would replace that object's prototype). The compiled checks note each
 * checked object or array that owns such a key or holds one that does; a valid value is then
 * returned with a copy of that path, the keys left out, and everything else as it came.
 */

/** Checked objects and arrays, in this parse, that own a `__proto__` key or lead to one. */
export const protoPath: object[] = [];

/** `value` with the noted path copied and its `__proto__` keys left out. */
export function withoutProtoKeys(value: unknown, path: ReadonlySet<object>): unknown {
  if (typeof value !== 'object' || value === null || !path.has(value)) return value;
  if (Array.isArray(value)) return value.map((item) => withoutProtoKeys(item, path));
  const entries = Object.entries(value).filter(([key]) => key !== '__proto__');
  return Object.fromEntries(entries.map(([key, item]) => [key, withoutProtoKeys(item, path)]));
}
