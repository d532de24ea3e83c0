/** Elicitation (`elicitation/create`): form schemas, URL mode, and the client's answer. */
import { z } from 'zod';
import type { WireFeatures } from './features';

const described = { title: z.string().optional(), description: z.string().optional() };
const option = z.looseObject({ const: z.string(), title: z.string() });

export const StringSchema = z.looseObject({
  type: z.literal('string'),
  ...described,
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
});
export const NumberSchema = z.looseObject({
  type: z.enum(['number', 'integer']),
  ...described,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
export const BooleanSchema = z.looseObject({
  type: z.literal('boolean'),
  ...described,
  default: z.boolean().optional(),
});
export const UntitledSingleSelectEnumSchema = z.looseObject({
  type: z.literal('string'),
  ...described,
  enum: z.array(z.string()),
  default: z.string().optional(),
});
export const TitledSingleSelectEnumSchema = z.looseObject({
  type: z.literal('string'),
  ...described,
  oneOf: z.array(option),
  default: z.string().optional(),
});
const multiSelect = {
  type: z.literal('array'),
  ...described,
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  default: z.array(z.string()).optional(),
};
export const UntitledMultiSelectEnumSchema = z.looseObject({
  ...multiSelect,
  items: z.looseObject({ type: z.literal('string'), enum: z.array(z.string()) }),
});
export const TitledMultiSelectEnumSchema = z.looseObject({
  ...multiSelect,
  items: z.looseObject({ anyOf: z.array(option) }),
});
/** The `enumNames` form, the only enum form of 2025-06-18 and kept for compatibility later. */
export const LegacyTitledEnumSchema = z.looseObject({
  type: z.literal('string'),
  ...described,
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});

export function primitiveSchemaDefinition(f: WireFeatures) {
  // Enum forms come first: a plain string schema would also accept them (objects are loose).
  return f.elicitation === 'form'
    ? z.union([LegacyTitledEnumSchema, StringSchema, NumberSchema, BooleanSchema])
    : z.union([
        TitledSingleSelectEnumSchema,
        UntitledSingleSelectEnumSchema,
        LegacyTitledEnumSchema,
        TitledMultiSelectEnumSchema,
        UntitledMultiSelectEnumSchema,
        StringSchema,
        NumberSchema,
        BooleanSchema,
      ]);
}

/** The form-mode params (2025-06-18 has no `mode`; it is optional afterwards). */
export function elicitFormFields(f: WireFeatures) {
  return {
    mode: z.literal('form').optional(),
    message: z.string(),
    requestedSchema: z.looseObject({
      $schema: z.string().optional(),
      type: z.literal('object'),
      properties: z.record(z.string(), primitiveSchemaDefinition(f)),
      required: z.array(z.string()).optional(),
    }),
  };
}

/** URL mode; 2025-11-25 requires an `elicitationId`, 2026-07-28 dropped it. */
export function elicitUrlFields(f: WireFeatures) {
  return {
    mode: z.literal('url'),
    message: z.string(),
    url: z.string(),
    ...(f.elicitation === 'form-and-url-with-id' ? { elicitationId: z.string() } : {}),
  };
}

const scalarAnswer = z.union([z.string(), z.number(), z.boolean()]);
// Multi-select answers (string arrays) arrived with 2025-11-25.
const answerWithArrays = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** The client's answer to `elicitation/create`. */
export function elicitResultFields(f: WireFeatures) {
  return {
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z
      .record(z.string(), f.elicitation === 'form' ? scalarAnswer : answerWithArrays)
      .optional(),
  };
}
