/**
 * zod 4 schemas and other Standard Schemas: JSON Schema through the Standard JSON Schema
 * interface, validation through `~standard.validate`. zod itself is never imported here: a zod
 * schema converts itself, and a raw zod shape is read member by member (`zod-shape.ts`).
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { CompiledSchema, SchemaIo, ValidationResult } from './types';
import { isZodShape, shapeSchema } from './zod-shape';

const TARGET = 'draft-2020-12';
// The default dialect everywhere we send schemas; saying it again only trips older validators.
const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

type StandardProps = Partial<StandardSchemaV1.Props & StandardJSONSchemaV1.Props>;

function standardOf(input: unknown): StandardProps | undefined {
  if ((typeof input !== 'object' && typeof input !== 'function') || input === null) {
    return undefined;
  }
  const props = (input as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null ? (props as StandardProps) : undefined;
}

function pathText(path: StandardSchemaV1.Issue['path']): string {
  return (path ?? [])
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('/');
}

function toValidationResult(result: StandardSchemaV1.Result<unknown>): ValidationResult {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((issue) => {
      const at = pathText(issue.path);
      return at === '' ? issue.message : `${at}: ${issue.message}`;
    }),
  };
}

function convert(label: string, produce: () => Record<string, unknown>): Record<string, unknown> {
  let produced: Record<string, unknown>;
  try {
    produced = produce();
  } catch (error) {
    throw new TypeError(
      `${label}: the schema cannot be expressed as JSON Schema 2020-12 (${(error as Error).message})`,
    );
  }
  if (produced.$schema !== DEFAULT_DIALECT) return produced;
  const { $schema: _dialect, ...rest } = produced;
  return rest;
}

/** Why a Standard Schema without `~standard.jsonSchema` cannot be registered. */
function whyNoJsonSchema(input: unknown, standard: StandardProps): string {
  if (typeof input === 'object' && input !== null && '_zod' in input) {
    return 'this zod schema cannot produce JSON Schema on its own (zod/mini schemas lack ~standard.jsonSchema); use zod, or pass its JSON Schema';
  }
  if (standard.vendor === 'zod') return 'zod 3 schemas are not supported; use zod 4 or JSON Schema';
  return `this ${standard.vendor ?? ''} Standard Schema cannot produce JSON Schema (it does not implement ~standard.jsonSchema); pass a JSON Schema instead`;
}

/**
 * Recognises a zod 4 schema (or raw shape) or a Standard Schema and compiles it; `undefined`
 * for anything else (a raw JSON Schema). Throws a `TypeError` for a Standard Schema that cannot
 * produce JSON Schema, and for a zod 3 schema.
 */
export function compileStandardSchema(
  input: unknown,
  io: SchemaIo,
  label: string,
): { jsonSchema: Record<string, unknown>; validate: CompiledSchema['validate'] } | undefined {
  const standard = isZodShape(input) ? shapeSchema(input) : standardOf(input);
  if (standard === undefined) return undefined;
  const validate = standard.validate;
  if (validate === undefined) {
    throw new TypeError(`${label}: the schema has no Standard Schema validate function`);
  }
  const converter = standard.jsonSchema;
  if (converter === undefined) throw new TypeError(`${label}: ${whyNoJsonSchema(input, standard)}`);
  const jsonSchema = convert(label, () => converter[io]({ target: TARGET }));
  return {
    jsonSchema,
    validate: (value) => {
      const result = validate(value);
      return result instanceof Promise
        ? result.then(toValidationResult)
        : toValidationResult(result);
    },
  };
}
