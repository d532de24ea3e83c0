/**
 * Schemas of foreign tools (zod, Standard Schema, JSON Schema, a host's own wrappers) as the JSON
 * Schema a host tool carries, with what the conversion lost.
 */
import type { JsonSchema } from '../../registry/types';
import { convertSchema } from '../../schema/convert';
import type { SchemaLoss } from '../../schema/reports';

/** A converted schema: JSON Schema, plus what did not survive (empty for plain JSON Schema). */
export interface ForeignSchema {
  jsonSchema: JsonSchema;
  losses: SchemaLoss[];
}

/** Whether `value` is a zod 4 schema or a Standard Schema that can describe itself. */
export function isConvertible(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if ('_zod' in value) return true;
  const standard = (value as { '~standard'?: { jsonSchema?: unknown } })['~standard'];
  return typeof standard === 'object' && standard !== null && standard.jsonSchema !== undefined;
}

/** Whether `value` looks like plain JSON Schema (an object that is no schema library's). */
export function isPlainJsonSchema(value: unknown): value is JsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return !('_zod' in value) && !('_def' in value) && !('~standard' in value);
}

/**
 * Converts a zod 4 / Standard Schema with `convertSchema`; anything else goes to `fallback` (a
 * host's own converter), which returns `undefined` when it cannot either.
 */
export function foreignSchema(
  input: unknown,
  io: 'input' | 'output',
  label: string,
  fallback: (input: unknown) => JsonSchema | undefined,
): ForeignSchema | undefined {
  if (isPlainJsonSchema(input)) return { jsonSchema: input, losses: [] };
  if (isConvertible(input)) {
    const converted = convertSchema(input, io, label);
    return { jsonSchema: converted.jsonSchema, losses: [...converted.losses] };
  }
  const jsonSchema = fallback(input);
  return jsonSchema === undefined ? undefined : { jsonSchema, losses: [] };
}
