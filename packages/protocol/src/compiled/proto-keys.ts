/**
 * zod leaves an own `__proto__` key out of what an object or record schema returns (copying it
 * into a plain object would replace that object's prototype). The compiled checks note each
 * object that has one, and a valid value is then returned with those keys left out: a copy of
 * the path down to them, everything else as it came.
 */

/** Objects met at an object or record position that own a `__proto__` key, in this parse. */
export const protoOwners: object[] = [];

/** `value` without the `__proto__` keys of the noted owners; unchanged parts are not copied. */
export function withoutProtoKeys(value: unknown, owners: ReadonlySet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = withoutProtoKeys(item, owners);
      if (next === item) return;
      copy ??= value.slice();
      copy[i] = next;
    });
    return copy ?? value;
  }
  const owner = owners.has(value);
  let changed = owner;
  const entries = Object.entries(value).flatMap(([key, item]) => {
    if (owner && key === '__proto__') return [];
    const next = withoutProtoKeys(item, owners);
    if (next !== item) changed = true;
    return [[key, next] as const];
  });
  // fromEntries defines its keys, so a kept `__proto__` stays a key, not a prototype.
  return changed ? Object.fromEntries(entries) : value;
}
