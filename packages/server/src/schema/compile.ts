/**
 * One entry point for every schema kind a registration may give: zod 4, another Standard
 * Schema with JSON Schema output, or raw JSON Schema. Each is compiled once, at registration.
 */
import { compileJsonSchema, toJsonObject } from './json-schema';
import { compileStandardSchema } from './standard-schema';
import type { CompiledSchema, SchemaIo } from './types';

// A tool without parameters: the shape the spec recommends.
const NO_ARGUMENTS = { type: 'object', additionalProperties: false };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Compiles a schema. `io` picks the side a zod or Standard Schema describes on the wire: what a
 * client sends (`input`) or what a handler returns (`output`). `label` names the registration in
 * error messages. Throws a `TypeError` when the schema cannot be used.
 *
 * @experimental
 */
export function compileSchema(input: unknown, io: SchemaIo, label: string): CompiledSchema {
  const compiled = compileStandardSchema(input, io, label) ?? compileJsonSchema(input, label);
  // A plain JSON copy: no hidden properties of the producing library reach the wire.
  return {
    jsonSchema: deepFreeze(toJsonObject(compiled.jsonSchema, label)),
    validate: compiled.validate,
  };
}

/**
 * Compiles a tool's input schema, whose root must be `type: "object"`; no schema means a tool
 * without parameters.
 *
 * @experimental
 */
export function compileToolInputSchema(input: unknown, label: string): CompiledSchema {
  const compiled = compileSchema(input ?? NO_ARGUMENTS, 'input', label);
  if (compiled.jsonSchema.type !== 'object') {
    throw new TypeError(`${label}: a tool's input schema must have root "type": "object"`);
  }
  return compiled;
}
