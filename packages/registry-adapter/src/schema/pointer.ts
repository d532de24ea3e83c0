/**
 * JSON Pointer (RFC 6901) helpers and a plain-JSON view of schemas, shared by the converters
 * and normalisers.
 */
import { isRecord } from '@twofold/protocol/experimental';

/** A JSON Schema node as the normalisers handle it: an object or a boolean schema. */
export type SchemaNode = Record<string, unknown> | boolean;

/** Escapes one pointer segment (`~` → `~0`, `/` → `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `base` with `segments` appended. */
export function childPointer(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((segment) => `/${escapePointer(String(segment))}`).join('');
}

/** A deep copy that is plain JSON: the input is never touched afterwards. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Resolves a local reference (`#`, `#/$defs/x`) against `root`; `undefined` for anything else
 * (remote references, anchors, missing targets).
 */
export function resolveLocalRef(root: unknown, ref: string): SchemaNode | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = ref.slice(1);
  if (fragment !== '' && !fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment === '' ? [] : fragment.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return isRecord(node) || typeof node === 'boolean' ? node : undefined;
}

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;

/** Keywords whose value is an array of subschemas (`items` may be one too, draft 7 tuples). */
export const ARRAY_SCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;

/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;

/**
 * A copy of `node` with every direct subschema replaced by `visit(child, pointer)`; literal
 * payloads (`enum`, `const`, `default`, `examples`) are left alone.
 */
export function mapChildren(
  node: Record<string, unknown>,
  path: string,
  visit: (child: SchemaNode, pointer: string) => SchemaNode,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...node };
  const isSchema = (value: unknown): value is SchemaNode =>
    isRecord(value) || typeof value === 'boolean';
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    const child = node[keyword];
    if (isSchema(child)) out[keyword] = visit(child, childPointer(path, keyword));
  }
  for (const keyword of ARRAY_SCHEMA_KEYWORDS) {
    const children = node[keyword];
    if (!Array.isArray(children)) continue;
    out[keyword] = children.map((child, index) =>
      isSchema(child) ? visit(child, childPointer(path, keyword, index)) : child,
    );
  }
  for (const keyword of MAP_SCHEMA_KEYWORDS) {
    const children = node[keyword];
    if (!isRecord(children)) continue;
    const mapped: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(children)) {
      mapped[name] = isSchema(child) ? visit(child, childPointer(path, keyword, name)) : child;
    }
    out[keyword] = mapped;
  }
  return out;
}
