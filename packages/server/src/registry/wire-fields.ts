/** Copying a definition's optional descriptive fields into the wire object it describes. */

/**
 * The listed fields of `source` that are defined, each copied one level deep so that later
 * changes to the definition never reach the registered (frozen) wire object.
 */
export function pickDefined<T extends object, const K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) {
    const value = source[key];
    if (value === undefined) continue;
    picked[key] = (
      Array.isArray(value)
        ? value.map((item: unknown) =>
            typeof item === 'object' && item !== null ? { ...item } : item,
          )
        : typeof value === 'object' && value !== null
          ? { ...value }
          : value
    ) as T[K];
  }
  return picked;
}
