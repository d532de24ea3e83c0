/**
 * Raw JSON Schema: dialect check, `$ref` resolution check and validation with
 * `@cfworker/json-schema` (runtime-neutral, no code generation, never fetches a remote `$ref`).
 */
import { dereference, type OutputUnit, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { CompiledSchema, ValidationResult } from './types';

// `$schema` URIs of the dialects the validator implements; a missing `$schema` means 2020-12.
const DIALECTS: Readonly<Record<string, SchemaDraft>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': '7',
  'http://json-schema.org/draft-04/schema': '4',
};

function dialectOf(schema: Record<string, unknown>, label: string): SchemaDraft {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  const draft = typeof declared === 'string' ? DIALECTS[declared.replace(/#$/, '')] : undefined;
  if (draft === undefined) {
    throw new TypeError(
      `${label}: unsupported JSON Schema dialect ${JSON.stringify(declared)}; supported are ${Object.keys(DIALECTS).join(', ')}`,
    );
  }
  return draft;
}

/** A deep copy that is plain JSON (throws on cycles, drops functions and `undefined`). */
export function toJsonObject(value: unknown, label: string): Record<string, unknown> {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value));
  } catch (error) {
    throw new TypeError(`${label}: the schema is not JSON (${(error as Error).message})`);
  }
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) {
    throw new TypeError(`${label}: a JSON Schema must be an object`);
  }
  return copy as Record<string, unknown>;
}

/** Every `$ref` must resolve inside the schema: an external one would need a fetch. */
function checkReferences(schema: Record<string, unknown>, label: string): void {
  const lookup = dereference(schema);
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const record = node as Record<string, unknown>;
    if ('$dynamicRef' in record) {
      throw new TypeError(`${label}: $dynamicRef is not supported`);
    }
    // Set (non-enumerable) by `dereference` on every subschema that has a `$ref`.
    const absolute = (record as { __absolute_ref__?: string }).__absolute_ref__;
    if (absolute !== undefined && lookup[absolute] === undefined) {
      throw new TypeError(
        `${label}: $ref ${JSON.stringify(record.$ref)} does not resolve inside the schema (remote references are never fetched)`,
      );
    }
    for (const child of Object.values(record)) visit(child);
  };
  visit(schema);
}

/** Keeps the errors that say what is wrong, not the ones that only say "a subschema failed". */
function describeErrors(errors: readonly OutputUnit[]): string[] {
  const issues: string[] = [];
  for (const error of errors) {
    if (error.keyword === 'false') continue;
    const prefix = `${error.keywordLocation}/`;
    if (errors.some((other) => other.keywordLocation.startsWith(prefix))) continue;
    const at = error.instanceLocation.replace(/^#\/?/, '');
    const issue = at === '' ? error.error : `${at}: ${error.error}`;
    if (!issues.includes(issue)) issues.push(issue);
  }
  return issues;
}

/**
 * Compiles a raw JSON Schema object. Throws a `TypeError` (a programmer error, at registration)
 * for a non-JSON value, an unsupported `$schema` dialect, `$dynamicRef`, or a `$ref` that does
 * not resolve inside the schema.
 */
export function compileJsonSchema(
  input: unknown,
  label: string,
): { jsonSchema: Record<string, unknown>; validate: CompiledSchema['validate'] } {
  const jsonSchema = toJsonObject(input, label);
  const draft = dialectOf(jsonSchema, label);
  // The validator annotates the schema it is given, so it gets its own copy.
  const owned = toJsonObject(jsonSchema, label);
  checkReferences(owned, label);
  const fast = new Validator(owned, draft, true);
  const thorough = new Validator(owned, draft, false);
  const validate = (value: unknown): ValidationResult => {
    // The short-circuiting pass is the hot path; the full one runs only to explain a failure.
    if (fast.validate(value).valid) return { ok: true, value };
    return { ok: false, issues: describeErrors(thorough.validate(value).errors) };
  };
  return { jsonSchema, validate };
}
