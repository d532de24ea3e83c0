/**
 * zod 4 schemas and other Standard Schemas: JSON Schema through zod's own converter or the
 * Standard JSON Schema interface, validation through `~standard.validate`.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { toJSONSchema, z } from 'zod';
import type { CompiledSchema, SchemaIo, ValidationResult } from './types';

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

function isZod4(input: unknown): input is z.core.$ZodType {
  return typeof input === 'object' && input !== null && '_zod' in input;
}

/** `{ a: z.string() }`: the shorthand for `z.object({ a: z.string() })`. */
function isZodShape(input: unknown): input is z.core.$ZodShape {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const values = Object.values(input);
  return values.length > 0 && values.every(isZod4);
}

/**
 * The zod 4 schema (classic or mini) that `input` is, or stands for as a raw shape
 * (`{ a: z.string() }` is `z.object({ a: z.string() })`); `undefined` for anything else.
 * `compileSchema` recognises zod this way; this is for code that converts zod on its own.
 *
 * @experimental
 */
export function zodSchemaOf(input: unknown): z.core.$ZodType | undefined {
  if (isZodShape(input)) return z.object(input);
  return isZod4(input) ? input : undefined;
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
  const zod = zodSchemaOf(input);
  const schema = zod ?? input;
  const standard = standardOf(schema);
  if (zod === undefined && standard === undefined) return undefined;
  const validate = standard?.validate;
  if (validate === undefined) {
    throw new TypeError(`${label}: the schema has no Standard Schema validate function`);
  }
  let jsonSchema: Record<string, unknown>;
  if (zod !== undefined) {
    // zod's own converter also covers zod/mini, whose schemas lack `~standard.jsonSchema`.
    jsonSchema = convert(label, () => toJSONSchema(zod, { target: TARGET, io }));
  } else if (standard?.jsonSchema !== undefined) {
    const converter = standard.jsonSchema;
    jsonSchema = convert(label, () => converter[io]({ target: TARGET }));
  } else if (standard?.vendor === 'zod') {
    throw new TypeError(`${label}: zod 3 schemas are not supported; use zod 4 or JSON Schema`);
  } else {
    throw new TypeError(
      `${label}: this ${standard?.vendor ?? ''} Standard Schema cannot produce JSON Schema (it does not implement ~standard.jsonSchema); pass a JSON Schema instead`,
    );
  }
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
