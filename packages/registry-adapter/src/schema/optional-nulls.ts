/**
 * Undoing the one `openai-strict` rewrite that changes what a model sends: optional properties
 * become required and nullable, so a model "omits" one by sending `null`, which the tool's own
 * schema would reject.
 */
import { isRecord } from '@twofold/protocol/experimental';
import type { SchemaChange } from './reports';

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function omitAt(value: unknown, segments: readonly string[]): unknown {
  const [keyword, name, ...rest] = segments;
  if (keyword === undefined) return value;
  if (keyword === 'items') {
    return Array.isArray(value) ? value.map((item) => omitAt(item, segments.slice(1))) : value;
  }
  if (keyword === 'anyOf' && name !== undefined) return omitAt(value, rest);
  if (keyword !== 'properties' || name === undefined || !isRecord(value)) return value;
  if (!Object.hasOwn(value, name)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (rest.length === 0) {
    if (copy[name] === null) delete copy[name];
  } else {
    copy[name] = omitAt(copy[name], rest);
  }
  return copy;
}

/**
 * Removes the `null` a model sent for a property that `normalizeSchema(…, 'openai-strict')`
 * made required and nullable (a change with keyword `required` and action `added`), so the
 * arguments fit the tool's original schema again. Follows `properties`, `items` and `anyOf`
 * paths; properties reached only through a `$ref` are left as they are. Returns a copy.
 *
 * @experimental
 */
export function omitNullOptionals<T>(args: T, changes: readonly SchemaChange[]): T {
  let out: unknown = args;
  for (const change of changes) {
    if (change.keyword !== 'required' || change.action !== 'added') continue;
    const segments = change.path.split('/').slice(1).map(unescapeSegment);
    out = omitAt(out, segments);
  }
  return out as T;
}
