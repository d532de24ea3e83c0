/**
 * The `openai-strict` profile: OpenAI strict function calling and Structured Outputs accept a
 * subset of JSON Schema. Keyword list as the `openai` SDK's own `toStrictJsonSchema` (v7) and
 * the Structured Outputs guide state it: every object closed and fully required, optional
 * properties expressed as nullable, no `allOf`/`oneOf`/`not`/conditionals/tuples, a fixed set of
 * string formats, and every schema typed. Local `$ref`/`$defs` stay (strict mode follows them).
 */
import { isRecord } from '@twofold/protocol/experimental';
import { foldAllOf } from './all-of';
import { childPointer, mapChildren, type SchemaNode } from './pointer';
import type { Report } from './reports';

const UNSUPPORTED = new Set([
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  '$comment',
  'additionalItems',
  'contains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'if',
  'then',
  'else',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'not',
  'patternProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
]);

const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

// Strict mode needs a type on every schema; an unconstrained one becomes any JSON scalar.
const ANY_SCALAR = ['string', 'number', 'boolean', 'null'];

const TYPING_KEYWORDS = ['type', 'anyOf', '$ref', 'enum', 'const'];

function typesOf(node: Record<string, unknown>): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function isObjectSchema(node: Record<string, unknown>): boolean {
  return typesOf(node).includes('object') || isRecord(node.properties);
}

/** Whether `node` already accepts `null`. */
export function acceptsNull(node: SchemaNode): boolean {
  if (!isRecord(node)) return node;
  if (typesOf(node).includes('null')) return true;
  if (node.const === null) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  return (
    Array.isArray(node.anyOf) && node.anyOf.some((branch) => acceptsNull(branch as SchemaNode))
  );
}

/** `node` widened to also accept `null`. */
function withNull(node: Record<string, unknown>): Record<string, unknown> {
  const types = typesOf(node);
  if (types.length > 0 && node.const === undefined && node.$ref === undefined) {
    return {
      ...node,
      type: [...types, 'null'],
      ...(Array.isArray(node.enum) ? { enum: [...node.enum, null] } : {}),
    };
  }
  if (Array.isArray(node.anyOf) && node.$ref === undefined && types.length === 0) {
    return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  }
  return { anyOf: [node, { type: 'null' }] };
}

/** Keyword-level rewrites of one schema, before its children are visited. */
function cleanKeywords(node: Record<string, unknown>, path: string, report: Report) {
  let out: Record<string, unknown> = { ...node };
  for (const keyword of Object.keys(out)) {
    if (!UNSUPPORTED.has(keyword)) continue;
    delete out[keyword];
    report({ path, keyword, action: 'removed', detail: 'not supported in strict mode' });
  }
  if (out.oneOf !== undefined) {
    const { oneOf, ...rest } = out;
    if (rest.anyOf === undefined && Array.isArray(oneOf)) {
      out = { ...rest, anyOf: oneOf };
      report({
        path,
        keyword: 'oneOf',
        action: 'rewritten',
        detail: 'became anyOf: "exactly one branch" is no longer enforced',
      });
    } else {
      out = rest;
      report({ path, keyword: 'oneOf', action: 'removed', detail: 'not supported in strict mode' });
    }
  }
  out = foldAllOf(out, path, report);
  if (Array.isArray(out.items) || out.prefixItems !== undefined) {
    const tuple = Array.isArray(out.items) ? out.items : out.prefixItems;
    const { prefixItems: _prefix, ...rest } = out;
    const keyword = Array.isArray(out.items) ? 'items' : 'prefixItems';
    out = rest;
    if (Array.isArray(tuple) && tuple.length > 0 && !isRecord(out.items)) {
      out.items = tuple.length === 1 ? tuple[0] : { anyOf: tuple };
    } else if (Array.isArray(out.items)) {
      delete out.items;
    }
    report({
      path,
      keyword,
      action: 'rewritten',
      detail: 'a tuple became a list of any of its item schemas (positions are not enforced)',
    });
  }
  if (typeof out.format === 'string' && !FORMATS.has(out.format)) {
    report({
      path,
      keyword: 'format',
      action: 'removed',
      detail: `format "${out.format}" is not supported in strict mode`,
    });
    delete out.format;
  }
  return out;
}

/** Closes an object schema and lists every property as required. */
function closeObject(node: Record<string, unknown>, path: string, report: Report) {
  const out: Record<string, unknown> = { ...node };
  if (out.type === undefined) {
    out.type = 'object';
    report({ path, keyword: 'type', action: 'added', detail: '"object" made explicit' });
  }
  if (out.additionalProperties === undefined) {
    report({
      path,
      keyword: 'additionalProperties',
      action: 'added',
      detail: 'objects are closed',
    });
    out.additionalProperties = false;
  }
  const properties = isRecord(out.properties) ? { ...out.properties } : {};
  const required = new Set(Array.isArray(out.required) ? out.required : []);
  for (const [name, schema] of Object.entries(properties)) {
    if (required.has(name)) continue;
    const at = childPointer(path, 'properties', name);
    if (acceptsNull(schema as SchemaNode)) {
      report({
        path: at,
        keyword: 'required',
        action: 'rewritten',
        detail: 'optional property listed as required (it already accepts null)',
      });
    } else {
      properties[name] = isRecord(schema) ? withNull(schema) : schema;
      report({
        path: at,
        keyword: 'required',
        action: 'added',
        detail: 'optional property made required and nullable; send null to omit it',
      });
    }
  }
  out.properties = properties;
  out.required = Object.keys(properties);
  return out;
}

function strictNode(node: SchemaNode, path: string, report: Report): SchemaNode {
  if (node === true || (isRecord(node) && Object.keys(node).length === 0)) {
    report({ path, keyword: 'type', action: 'rewritten', detail: 'any value became any scalar' });
    return { type: ANY_SCALAR };
  }
  if (!isRecord(node)) return node;
  let out = cleanKeywords(node, path, report);
  if (path !== '' && !TYPING_KEYWORDS.some((keyword) => out[keyword] !== undefined)) {
    if (!isObjectSchema(out) && out.items === undefined) {
      report({
        path,
        keyword: 'type',
        action: 'added',
        detail: 'untyped schema became any scalar',
      });
      out = { ...out, type: ANY_SCALAR };
    } else if (out.items !== undefined) {
      out = { ...out, type: 'array' };
      report({ path, keyword: 'type', action: 'added', detail: '"array" made explicit' });
    }
  }
  if (
    isObjectSchema(out) &&
    out.additionalProperties !== undefined &&
    out.additionalProperties !== false
  ) {
    // Closed before the children are visited: the open schema is dropped, not normalised.
    out = { ...out, additionalProperties: false };
    report({
      path,
      keyword: 'additionalProperties',
      action: 'rewritten',
      detail: 'closed: properties not listed can no longer be sent',
    });
  }
  out = mapChildren(out, path, (child, pointer) => strictNode(child, pointer, report));
  return isObjectSchema(out) ? closeObject(out, path, report) : out;
}

/** The `openai-strict` rewrite of a plain JSON copy (the root must describe an object). */
export function normalizeOpenAiStrict(
  root: Record<string, unknown>,
  report: Report,
): Record<string, unknown> {
  let out: Record<string, unknown> = { ...root };
  for (const keyword of ['$schema', '$id']) {
    if (out[keyword] === undefined) continue;
    delete out[keyword];
    report({ path: '', keyword, action: 'removed', detail: 'metadata hosts do not need' });
  }
  if (!isObjectSchema(out) && out.$ref === undefined) {
    out = { ...out, type: 'object', properties: {} };
    report({ path: '', keyword: 'type', action: 'added', detail: 'the root must be an object' });
  }
  const result = strictNode(out, '', report);
  return isRecord(result) ? result : out;
}
