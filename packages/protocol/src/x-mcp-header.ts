/**
 * The `x-mcp-header` annotation of tool input schemas (2026-07-28): finding and validating the
 * annotated parameters (their values are encoded by `encodeArgumentForHeader` in http-headers).
 *
 * @packageDocumentation
 */

import { isRecord } from './util';

/**
 * One tool parameter mirrored into an `Mcp-Param-<header>` request header.
 *
 * @experimental
 */
export interface McpHeaderParam {
  /** The name after `Mcp-Param-`, exactly as written in the schema. */
  header: string;
  /** Property keys leading from the root of `arguments` to the value. */
  path: readonly string[];
  /** The declared JSON Schema type of the property. */
  type: 'string' | 'integer' | 'boolean';
}

/**
 * Outcome of {@link collectHeaderParams}.
 *
 * @experimental
 */
export type CollectHeaderParamsResult =
  | { ok: true; params: McpHeaderParam[] }
  | { ok: false; errors: string[] };

const KEYWORD = 'x-mcp-header';
const MAX_DEPTH = 64;
const MAX_NODES = 100_000;
// RFC 9110 token = 1*tchar.
const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Instance data, not schemas: an `x-mcp-header` key inside them is no annotation.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
// Maps whose values are not schemas and hold no annotation.
const PLAIN_MAP_KEYWORDS = new Set(['dependentRequired', '$vocabulary']);
// Maps from a name to a subschema; their keys are names, never annotations.
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

interface Walk {
  params: McpHeaderParam[];
  errors: string[];
  seen: Map<string, string>;
  onPath: Set<object>;
  nodes: number;
  stopped: boolean;
}

function pointerTo(parent: string, key: string | number): string {
  return `${parent}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

// Guards every object visited: depth and node budget (fail closed) and cycles.
function enter(node: object, pointer: string, depth: number, walk: Walk): boolean {
  if (walk.stopped) return false;
  const at = `#${pointer}`;
  if (depth > MAX_DEPTH) {
    walk.errors.push(`${at}: schema nests deeper than ${MAX_DEPTH} levels; not checked`);
    walk.stopped = true;
    return false;
  }
  if (++walk.nodes > MAX_NODES) {
    walk.errors.push(`${at}: schema has more than ${MAX_NODES} nodes; not checked`);
    walk.stopped = true;
    return false;
  }
  if (walk.onPath.has(node)) {
    walk.errors.push(`${at}: schema is cyclic`);
    return false;
  }
  walk.onPath.add(node);
  return true;
}

function headerNameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'value must be a string';
  if (value === '') return 'value must not be empty';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return 'value must not contain control characters (CR, LF, …)';
  }
  if (!TOKEN_RE.test(value)) return `value ${JSON.stringify(value)} is not an RFC 9110 token`;
  return undefined;
}

/**
 * The one primitive type a property declares, or why it does not qualify. A one-element array
 * (`["string"]`) means the same as the bare string and is accepted. Any union is rejected, and
 * that includes `["string", "null"]`: the spec permits the annotation only on integer, string
 * or boolean parameters and says nothing of nullable ones, so the safe reading is that `null` is
 * not among the allowed types (its "omit the header when the value is null" rule covers
 * arguments, not schemas). A property without `type` is rejected too: without it we cannot tell
 * that the type is allowed.
 */
function declaredType(type: unknown): { type: McpHeaderParam['type'] } | { problem: string } {
  const single = Array.isArray(type) && type.length === 1 ? type[0] : type;
  if (single === undefined) {
    return { problem: 'property declares no "type"; string, integer or boolean is required' };
  }
  if (Array.isArray(single)) {
    return { problem: 'type unions (including nullable types) are not permitted' };
  }
  if (single === 'string' || single === 'integer' || single === 'boolean') return { type: single };
  if (single === 'number') return { problem: 'type "number" is not permitted; use "integer"' };
  return {
    problem: `type ${JSON.stringify(single)} is not permitted; only string, integer or boolean`,
  };
}

function checkAnnotation(
  schema: Record<string, unknown>,
  pointer: string,
  path: readonly string[] | undefined,
  walk: Walk,
): void {
  const at = `#${pointer}`;
  if (path === undefined) {
    walk.errors.push(
      `${at}: ${KEYWORD} is allowed only on properties reached through "properties" keys`,
    );
    return;
  }
  if (path.length === 0) {
    walk.errors.push(`${at}: ${KEYWORD} is not allowed on the schema root`);
    return;
  }
  const value = schema[KEYWORD];
  const nameProblem = headerNameProblem(value);
  if (nameProblem !== undefined) walk.errors.push(`${at}: ${KEYWORD} ${nameProblem}`);
  const declared = declaredType(schema.type);
  if ('problem' in declared) walk.errors.push(`${at}: ${declared.problem}`);
  if (typeof value !== 'string' || nameProblem !== undefined) return;
  // Tokens are ASCII, so toLowerCase is an exact case fold here.
  const folded = value.toLowerCase();
  const first = walk.seen.get(folded);
  if (first !== undefined) {
    walk.errors.push(`${at}: ${KEYWORD} ${JSON.stringify(value)} duplicates the one at ${first}`);
    return;
  }
  walk.seen.set(folded, at);
  if ('type' in declared) walk.params.push({ header: value, path, type: declared.type });
}

/**
 * Visits a schema position. `path` is defined only while every step from the root was a
 * `properties` key; that is what makes an annotation statically reachable.
 */
function visit(
  node: unknown,
  pointer: string,
  path: readonly string[] | undefined,
  depth: number,
  walk: Walk,
): void {
  if (typeof node !== 'object' || node === null || !enter(node, pointer, depth, walk)) return;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      visit(node[i], pointerTo(pointer, i), undefined, depth + 1, walk);
    }
  } else {
    const schema = node as Record<string, unknown>;
    if (Object.hasOwn(schema, KEYWORD)) {
      checkAnnotation(schema, pointer, path, walk);
    }
    for (const key of Object.keys(schema)) {
      if (key === KEYWORD || DATA_KEYWORDS.has(key) || PLAIN_MAP_KEYWORDS.has(key)) continue;
      const child = schema[key];
      const childPointer = pointerTo(pointer, key);
      if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(child)) {
        if (!enter(child, childPointer, depth + 1, walk)) continue;
        const reachable = key === 'properties' ? path : undefined;
        for (const name of Object.keys(child)) {
          const childPath = reachable === undefined ? undefined : [...reachable, name];
          visit(child[name], pointerTo(childPointer, name), childPath, depth + 2, walk);
        }
        walk.onPath.delete(child);
      } else {
        // Every other keyword (items, anyOf, not, if, additionalProperties, extensions, …)
        // is walked too, and nothing under it is reachable.
        visit(child, childPointer, undefined, depth + 1, walk);
      }
    }
  }
  walk.onPath.delete(node);
}

/**
 * Finds every `x-mcp-header` annotation in a tool's `inputSchema` and checks the spec's rules:
 * the value is a non-empty RFC 9110 token (hence free of CR, LF and other control characters),
 * unique case-insensitively within the schema; it sits on a property whose `type` is exactly
 * `string`, `integer` or `boolean`; and that property is reached from the root through
 * `properties` keys only. An annotation anywhere else (under `items`, `anyOf`/`oneOf`/`allOf`/
 * `not`, `if`/`then`/`else`, `$defs`, `additionalProperties`, `patternProperties`, the root
 * itself, …) is an error. `$ref` is never followed: a referenced definition lives under
 * `$defs` or elsewhere off the `properties` chain, and is reported there.
 *
 * The walk is bounded: more than 64 levels of nesting or 100,000 objects, or a cycle, make the
 * result an error rather than an unchecked success. A schema without annotations yields
 * `{ ok: true, params: [] }`. Per the spec, a Streamable HTTP client drops a tool whose schema
 * fails here (and should log the tool name with the errors).
 *
 * @experimental
 */
export function collectHeaderParams(inputSchema: unknown): CollectHeaderParamsResult {
  const walk: Walk = {
    params: [],
    errors: [],
    seen: new Map(),
    onPath: new Set(),
    nodes: 0,
    stopped: false,
  };
  visit(inputSchema, '', [], 0, walk);
  return walk.errors.length > 0
    ? { ok: false, errors: walk.errors }
    : { ok: true, params: walk.params };
}
