/**
 * What a schema becomes at registration: its JSON Schema for the wire and a validator, both
 * built once.
 */

/**
 * Outcome of validating a value against a registered schema. On success `value` is what the
 * handler gets (a zod schema may apply defaults and transforms); on failure `issues` are short,
 * model-readable messages (`path: problem`).
 *
 * @experimental
 */
export type ValidationResult = { ok: true; value: unknown } | { ok: false; issues: string[] };

/**
 * A schema converted once at registration.
 *
 * @experimental
 */
export interface CompiledSchema {
  /** The JSON Schema sent on the wire (deeply frozen; shared by every list result). */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /** Validates a value; async only when a Standard Schema validates asynchronously. */
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

/**
 * Which side of a schema a JSON Schema describes: what clients send, or what handlers return.
 *
 * @experimental
 */
export type SchemaIo = 'input' | 'output';
