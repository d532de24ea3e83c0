/**
 * TypeScript types of the wire, inferred from the schemas (never written twice). Where a shape
 * differs between revisions, the type is the union of what the revisions allow.
 */
import type { z } from 'zod';
import type {
  ClientCapabilities as ClientCapabilitiesSchema,
  ServerCapabilities as ServerCapabilitiesSchema,
} from './wire/capabilities';
import type * as content from './wire/content';
import type * as elicitation from './wire/elicitation';
import type * as entities from './wire/entities';
import type { SubscriptionFilter as SubscriptionFilterSchema } from './wire/method-table';
import type * as p from './wire/primitives';

/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type RequestId = z.infer<typeof p.RequestId>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ProgressToken = z.infer<typeof p.ProgressToken>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Cursor = z.infer<typeof p.Cursor>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Role = z.infer<typeof p.Role>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type LoggingLevel = z.infer<typeof p.LoggingLevel>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Icon = z.infer<typeof p.Icon>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Implementation = z.infer<typeof p.Implementation>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Annotations = z.infer<typeof p.Annotations>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type TextContent = z.infer<typeof content.TextContent>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ImageContent = z.infer<typeof content.ImageContent>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type AudioContent = z.infer<typeof content.AudioContent>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ResourceLink = z.infer<typeof content.ResourceLink>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type EmbeddedResource = z.infer<typeof content.EmbeddedResource>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLink
  | EmbeddedResource;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type TextResourceContents = z.infer<typeof content.TextResourceContents>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type BlobResourceContents = z.infer<typeof content.BlobResourceContents>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Resource = z.infer<typeof content.Resource>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ResourceTemplate = z.infer<typeof entities.ResourceTemplate>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Prompt = z.infer<typeof entities.Prompt>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type PromptArgument = z.infer<typeof content.PromptArgument>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Tool = z.infer<ReturnType<typeof entities.tool>>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type ToolAnnotations = z.infer<typeof entities.ToolAnnotations>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type Root = z.infer<typeof entities.Root>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type CompletionReference = z.infer<typeof entities.CompletionReference>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type PrimitiveSchemaDefinition = z.infer<
  ReturnType<typeof elicitation.primitiveSchemaDefinition>
>;
/**
 * Inferred from the wire schemas (the union of what the revisions allow).
 *
 * @experimental
 */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;
