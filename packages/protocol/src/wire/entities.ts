/** Tools, prompts, resource templates and roots, per revision. */
import { z } from 'zod';
import { PromptArgument } from './content';
import { perRevision } from './features';
import { Annotations, describedEntity, JsonObject, MetaObject, Role } from './primitives';

export const ToolAnnotations = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const ToolExecution = z.looseObject({
  taskSupport: z.enum(['forbidden', 'optional', 'required']).optional(),
});

/** A tool's input schema (2026-07-28): any JSON Schema 2020-12 whose root is `type: "object"`. */
export const ToolInputSchema = z.looseObject({
  type: z.literal('object'),
  $schema: z.string().optional(),
});

/** Up to 2025-11-25 the wire also types `properties` (schema objects) and `required`. */
const LegacyObjectSchema = ToolInputSchema.extend({
  properties: z.record(z.string(), JsonObject).optional(),
  required: z.array(z.string()).optional(),
});

export const tool = perRevision((f) => {
  const modern = f.structuredContent === 'any';
  // Up to 2025-11-25 the output schema must also be an object schema; 2026 allows any schema.
  const outputSchema = modern ? JsonObject : LegacyObjectSchema;
  return z.looseObject({
    ...describedEntity,
    inputSchema: modern ? ToolInputSchema : LegacyObjectSchema,
    outputSchema: outputSchema.optional(),
    annotations: ToolAnnotations.optional(),
    ...(f.tasks ? { execution: ToolExecution.optional() } : {}),
  });
});

export const Prompt = z.looseObject({
  ...describedEntity,
  arguments: z.array(PromptArgument).optional(),
});

export const ResourceTemplate = z.looseObject({
  ...describedEntity,
  uriTemplate: z.string(),
  mimeType: z.string().optional(),
  annotations: Annotations.optional(),
});

export function promptMessage(block: z.ZodType) {
  return z.looseObject({ role: Role, content: block });
}

export const PromptReference = z.looseObject({
  type: z.literal('ref/prompt'),
  name: z.string(),
  title: z.string().optional(),
});
/** `ref/resource` (called ResourceReference in 2024-11-05, same shape). */
export const ResourceTemplateReference = z.looseObject({
  type: z.literal('ref/resource'),
  uri: z.string(),
});
export const CompletionReference = z.discriminatedUnion('type', [
  PromptReference,
  ResourceTemplateReference,
]);

export const Root = z.looseObject({
  uri: z.string(),
  name: z.string().optional(),
  _meta: MetaObject.optional(),
});
