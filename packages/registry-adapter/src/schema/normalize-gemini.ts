/**
 * The `gemini` profile: Gemini function declarations take `parameters` as a subset of the
 * OpenAPI 3.0 Schema Object. The fields kept are those of the Gemini API `Schema` type
 * (`@google/genai` `types.Schema`): anyOf, default, description, enum (strings), example,
 * format, items, maximum, maxItems, maxLength, maxProperties, minimum, minItems, minLength,
 * minProperties, nullable, pattern, properties, propertyOrdering, required, title, type.
 * References are inlined before this runs; everything else is rewritten or removed.
 */
import { isRecord } from '@twofold/protocol/experimental';
import { foldAllOf } from './all-of';
import { mapChildren, type SchemaNode } from './pointer';
import type { Report } from './reports';

const KEYS = new Set([
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maximum',
  'maxItems',
  'maxLength',
  'maxProperties',
  'minimum',
  'minItems',
  'minLength',
  'minProperties',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
]);

// The Gemini API honours only these formats (the Developer API rejects other string formats).
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** `type: [t, "null"]` → `type: t, nullable: true`; several types → `anyOf`. */
function splitTypes(node: Record<string, unknown>, path: string, report: Report) {
  if (!Array.isArray(node.type)) return node;
  const types = node.type.filter((t): t is string => typeof t === 'string');
  const nonNull = types.filter((t) => t !== 'null');
  const { type: _type, ...rest } = node;
  const out: Record<string, unknown> = { ...rest };
  if (nonNull.length < types.length) out.nullable = true;
  if (nonNull.length === 1) out.type = nonNull[0];
  else if (nonNull.length > 1) out.anyOf = nonNull.map((t) => ({ type: t }));
  report({ path, keyword: 'type', action: 'rewritten', detail: 'type list became type/nullable' });
  return out;
}

/** `anyOf`/`oneOf` with a `null` branch → `nullable`; a single remaining branch is merged. */
function foldUnions(node: Record<string, unknown>, path: string, report: Report) {
  let out: Record<string, unknown> = { ...node };
  if (out.oneOf !== undefined) {
    const { oneOf, ...rest } = out;
    out = rest;
    if (out.anyOf === undefined && Array.isArray(oneOf)) {
      out.anyOf = oneOf;
      report({ path, keyword: 'oneOf', action: 'rewritten', detail: 'became anyOf' });
    } else {
      report({ path, keyword: 'oneOf', action: 'removed', detail: 'beside an anyOf' });
    }
  }
  if (!Array.isArray(out.anyOf)) return out;
  const isNull = (branch: unknown) =>
    isRecord(branch) && branch.type === 'null' && Object.keys(branch).length === 1;
  const branches = out.anyOf.filter((branch) => !isNull(branch));
  if (branches.length === out.anyOf.length) return out;
  out.nullable = true;
  const { anyOf: _anyOf, ...rest } = out;
  const only = branches[0];
  if (branches.length === 1 && isRecord(only) && !Object.keys(only).some((k) => k in rest)) {
    report({ path, keyword: 'anyOf', action: 'rewritten', detail: 'null branch became nullable' });
    return { ...rest, ...only };
  }
  report({ path, keyword: 'anyOf', action: 'rewritten', detail: 'null branch became nullable' });
  return branches.length === 0 ? rest : { ...rest, anyOf: branches };
}

/** `const` → `enum`; enums keep strings only (Gemini enums are strings). */
function fixEnums(node: Record<string, unknown>, path: string, report: Report) {
  const out: Record<string, unknown> = { ...node };
  if (out.const !== undefined) {
    const value = out.const;
    delete out.const;
    if (typeof value === 'string' || value === null) {
      out.enum = [value];
      report({ path, keyword: 'const', action: 'rewritten', detail: 'became a one-value enum' });
    } else {
      report({ path, keyword: 'const', action: 'removed', detail: 'only string values fit' });
    }
  }
  if (!Array.isArray(out.enum)) return out;
  if (out.enum.includes(null)) {
    out.nullable = true;
    out.enum = out.enum.filter((value) => value !== null);
    report({ path, keyword: 'enum', action: 'rewritten', detail: 'null became nullable' });
  }
  const values = out.enum as unknown[];
  if (values.length === 0 || values.some((value) => typeof value !== 'string')) {
    delete out.enum;
    report({
      path,
      keyword: 'enum',
      action: 'removed',
      detail: 'Gemini enums are strings only; the allowed values are no longer enforced',
    });
  } else if (out.type === undefined) {
    out.type = 'string';
    report({ path, keyword: 'type', action: 'added', detail: 'a string enum needs its type' });
  }
  return out;
}

/** Exclusive bounds, `examples`, tuples and unsupported formats. */
function fixKeywords(node: Record<string, unknown>, path: string, report: Report) {
  const out: Record<string, unknown> = { ...node };
  for (const [exclusive, inclusive, step] of [
    ['exclusiveMinimum', 'minimum', 1],
    ['exclusiveMaximum', 'maximum', -1],
  ] as const) {
    const bound = out[exclusive];
    if (typeof bound !== 'number') continue;
    delete out[exclusive];
    const exact = out.type === 'integer' && Number.isInteger(bound);
    out[inclusive] = exact ? bound + step : bound;
    report({
      path,
      keyword: exclusive,
      action: 'rewritten',
      detail: exact ? `became ${inclusive}` : `became ${inclusive} (the bound itself is allowed)`,
    });
  }
  if (Array.isArray(out.examples) && out.example === undefined) {
    out.example = out.examples[0];
    delete out.examples;
    report({ path, keyword: 'examples', action: 'rewritten', detail: 'first one became example' });
  }
  if (Array.isArray(out.items) || Array.isArray(out.prefixItems)) {
    const tuple = (Array.isArray(out.items) ? out.items : out.prefixItems) as unknown[];
    delete out.prefixItems;
    out.items = tuple.length === 1 ? tuple[0] : { anyOf: tuple };
    report({ path, keyword: 'items', action: 'rewritten', detail: 'a tuple became a list' });
  }
  if (typeof out.format === 'string') {
    const allowed = FORMATS[typeof out.type === 'string' ? out.type : ''] ?? [];
    if (!allowed.includes(out.format)) {
      report({ path, keyword: 'format', action: 'removed', detail: `"${out.format}" unsupported` });
      delete out.format;
    }
  }
  return out;
}

function geminiNode(node: SchemaNode, path: string, report: Report): SchemaNode {
  if (typeof node === 'boolean') {
    report({ path, keyword: '', action: 'rewritten', detail: 'boolean schema became {}' });
    return {};
  }
  let out = foldAllOf(node, path, report);
  out = splitTypes(out, path, report);
  out = foldUnions(out, path, report);
  out = fixEnums(out, path, report);
  out = fixKeywords(out, path, report);
  for (const keyword of Object.keys(out)) {
    if (KEYS.has(keyword)) continue;
    delete out[keyword];
    report({ path, keyword, action: 'removed', detail: 'not part of the Gemini schema subset' });
  }
  return mapChildren(out, path, (child, pointer) => geminiNode(child, pointer, report));
}

/** The `gemini` rewrite of a plain JSON copy whose references are already inlined. */
export function normalizeGemini(
  root: Record<string, unknown>,
  report: Report,
): Record<string, unknown> {
  const result = geminiNode(root, '', report);
  return isRecord(result) ? result : {};
}
