/**
 * One entry for every schema kind a host may give: zod 4 (or a raw zod shape), any Standard
 * Schema that produces JSON Schema, or raw JSON Schema. Converted once, with a list of what the
 * JSON Schema cannot say; the original schema stays the validator.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { compileSchema, isZodShape } from '@twofold/server/experimental';
import { z } from 'zod';
import type { JsonSchema } from '../registry/types';
import { jsonCopy } from './pointer';
import type { SchemaLoss } from './reports';
import { zodToJsonSchema } from './zod-losses';

/**
 * Outcome of validating a value: on success `value` is what the tool gets (zod applies defaults
 * and transforms); on failure `issues` are short, model-readable messages (`path: problem`).
 *
 * @experimental
 */
export type SchemaValidation = { ok: true; value: unknown } | { ok: false; issues: string[] };

/**
 * A schema converted once: its JSON Schema 2020-12 (a plain, deeply frozen JSON object), a
 * validator built on the original schema, and what the conversion lost.
 *
 * @experimental
 */
export interface ConvertedSchema {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): Promise<SchemaValidation>;
  readonly losses: readonly SchemaLoss[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function issueText(issue: StandardSchemaV1.Issue): string {
  const at = (issue.path ?? [])
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('/');
  return at === '' ? issue.message : `${at}: ${issue.message}`;
}

function zodValidator(schema: z.core.$ZodType): ConvertedSchema['validate'] {
  // Every zod 4 schema (classic and mini) implements Standard Schema.
  const standard = (schema as unknown as StandardSchemaV1)['~standard'];
  return async (value) => {
    const result = await standard.validate(value);
    if (result.issues === undefined) return { ok: true, value: result.value };
    return { ok: false, issues: result.issues.map(issueText) };
  };
}

function isZod4(input: unknown): input is z.core.$ZodType {
  return typeof input === 'object' && input !== null && '_zod' in input;
}

/** The zod 4 schema `input` is, or stands for as a raw shape (`{ a: z.string() }`). */
function zodSchemaOf(input: unknown): z.core.$ZodType | undefined {
  if (isZod4(input)) return input;
  return isZodShape(input) ? z.object(input as unknown as z.core.$ZodShape) : undefined;
}

/**
 * Converts a schema to JSON Schema 2020-12 for the `io` side (`input`: what callers send;
 * `output`: what a tool returns). zod 4 parts JSON Schema cannot express (transforms, refines,
 * pipes, dates, bigints, maps, sets, functions, custom types…) never fail the conversion: they
 * become `{}` or the described side, and each is listed in `losses`. Other Standard Schemas and
 * raw JSON Schemas convert without losses. `label` names the schema in errors. Throws a
 * `TypeError` for an unusable schema (a zod 3 schema, a Standard Schema without JSON Schema
 * output, a JSON Schema whose `$ref` does not resolve inside it, a non-JSON value).
 *
 * @experimental
 */
export function convertSchema(
  input: unknown,
  io: 'input' | 'output',
  label: string,
): ConvertedSchema {
  // A zod schema (or raw shape) converts here, listing its losses; the rest as the server does.
  const schema = zodSchemaOf(input);
  if (schema !== undefined) {
    let converted: ReturnType<typeof zodToJsonSchema>;
    try {
      converted = zodToJsonSchema(schema, io);
    } catch (error) {
      throw new TypeError(
        `${label}: the schema cannot be expressed as JSON Schema 2020-12 (${(error as Error).message})`,
      );
    }
    return {
      jsonSchema: deepFreeze(jsonCopy(converted.jsonSchema)),
      validate: zodValidator(schema),
      losses: Object.freeze(converted.losses),
    };
  }
  const compiled = compileSchema(input, io, label);
  return {
    jsonSchema: compiled.jsonSchema,
    validate: async (value) => compiled.validate(value),
    losses: Object.freeze([]),
  };
}
