/**
 * A canonical JSON text of a value, for cache keys: object keys sorted recursively, so two
 * param objects that differ only in key order give the same key.
 */

/**
 * The canonical JSON text of `value`: like `JSON.stringify`, but with object keys sorted at
 * every depth. Members whose value is `undefined` (or a function) are left out, as
 * `JSON.stringify` does; cycles throw a `TypeError`.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set()) ?? 'null';
}

function write(value: unknown, onPath: Set<object>): string | undefined {
  if (value === null || typeof value !== 'object') {
    // Primitives (and toJSON-less oddities) as JSON.stringify renders them.
    return JSON.stringify(value) as string | undefined;
  }
  if (onPath.has(value)) throw new TypeError('canonicalJson: cyclic value');
  onPath.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item) => write(item, onPath) ?? 'null').join(',')}]`;
    }
    const json = (value as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') return write(json.call(value), onPath);
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const text = write((value as Record<string, unknown>)[key], onPath);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    onPath.delete(value);
  }
}
