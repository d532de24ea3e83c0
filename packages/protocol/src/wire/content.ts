/** Content blocks and resource contents, with the block set each revision allows. */
import { z } from 'zod';
import { perRevision, type WireFeatures } from './features';
import {
  Annotations,
  baseMetadata,
  describedEntity,
  JsonObject,
  MetaObject,
  Role,
} from './primitives';

const blockCommon = { annotations: Annotations.optional(), _meta: MetaObject.optional() };

export const TextContent = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  ...blockCommon,
});
export const ImageContent = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  ...blockCommon,
});
export const AudioContent = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  ...blockCommon,
});

const resourceContentsBase = {
  uri: z.string(),
  mimeType: z.string().optional(),
  _meta: MetaObject.optional(),
};
export const ResourceContents = z.looseObject(resourceContentsBase);
export const TextResourceContents = z.looseObject({ ...resourceContentsBase, text: z.string() });
export const BlobResourceContents = z.looseObject({ ...resourceContentsBase, blob: z.string() });
export const AnyResourceContents = z.union([TextResourceContents, BlobResourceContents]);

export const EmbeddedResource = z.looseObject({
  type: z.literal('resource'),
  resource: AnyResourceContents,
  ...blockCommon,
});

/** Fields of a resource, shared by `Resource` and the `resource_link` block. */
export const resourceFields = {
  ...describedEntity,
  uri: z.string(),
  mimeType: z.string().optional(),
  size: z.number().int().optional(),
  annotations: Annotations.optional(),
};
export const Resource = z.looseObject(resourceFields);
export const ResourceLink = z.looseObject({ ...resourceFields, type: z.literal('resource_link') });

/** The content blocks a revision allows in tool results and prompt messages. */
export const contentBlock = perRevision((f) =>
  f.richContent
    ? z.discriminatedUnion('type', [
        TextContent,
        ImageContent,
        AudioContent,
        ResourceLink,
        EmbeddedResource,
      ])
    : z.discriminatedUnion('type', [TextContent, ImageContent, EmbeddedResource]),
);

export function toolUseContent() {
  return z.looseObject({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: JsonObject,
    _meta: MetaObject.optional(),
  });
}

export function toolResultContent(f: WireFeatures) {
  return z.looseObject({
    type: z.literal('tool_result'),
    toolUseId: z.string(),
    content: z.array(contentBlock(f)),
    structuredContent: structuredContent(f),
    isError: z.boolean().optional(),
    _meta: MetaObject.optional(),
  });
}

/** `structuredContent`: an object up to 2025-11-25, any JSON value from 2026-07-28. */
export function structuredContent(f: WireFeatures) {
  return f.structuredContent === 'any' ? z.unknown().optional() : JsonObject.optional();
}

/** One block of a sampling message, per revision. */
export function samplingContentBlock(f: WireFeatures) {
  if (f.samplingTools) {
    return z.discriminatedUnion('type', [
      TextContent,
      ImageContent,
      AudioContent,
      toolUseContent(),
      toolResultContent(f),
    ]);
  }
  return f.richContent
    ? z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent])
    : z.discriminatedUnion('type', [TextContent, ImageContent]);
}

/** Sampling content: one block, or (with sampling tools) an array of blocks. */
export function samplingContent(f: WireFeatures) {
  const block = samplingContentBlock(f);
  return f.samplingTools ? z.union([block, z.array(block)]) : block;
}

export function samplingMessage(f: WireFeatures) {
  return z.looseObject({
    role: Role,
    content: samplingContent(f),
    _meta: MetaObject.optional(),
  });
}

export const PromptArgument = z.looseObject({
  ...baseMetadata,
  description: z.string().optional(),
  required: z.boolean().optional(),
});
