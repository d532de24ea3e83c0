/**
 * The params and result fields of the core methods, as typed shapes: the method table builds
 * its schemas from them and `types.ts` infers the public TypeScript types from the same
 * objects, so the wire is still described once.
 */
import { z } from 'zod';
import { ClientCapabilities, ServerCapabilities } from './capabilities';
import { AnyResourceContents, contentBlock, Resource, structuredContent } from './content';
import { CompletionReference, Prompt, promptMessage, ResourceTemplate, tool } from './entities';
import type { WireFeatures } from './features';
import { Cursor, Implementation, JsonObject } from './primitives';

const stringMap = z.record(z.string(), z.string());
export const paginatedParams = { cursor: Cursor.optional() };
const nextCursor = { nextCursor: Cursor.optional() };

export const callToolParams = { name: z.string(), arguments: JsonObject.optional() };
export const getPromptParams = { name: z.string(), arguments: stringMap.optional() };
export const readResourceParams = { uri: z.string() };
export const completeParams = {
  ref: CompletionReference,
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: stringMap.optional() }).optional(),
};
export const initializeParams = {
  protocolVersion: z.string(),
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
};

export const listToolsResult = (f: WireFeatures) => ({ tools: z.array(tool(f)), ...nextCursor });
export const callToolResult = (f: WireFeatures) => ({
  content: z.array(contentBlock(f)),
  structuredContent: structuredContent(f),
  isError: z.boolean().optional(),
});
export const listPromptsResult = { prompts: z.array(Prompt), ...nextCursor };
export const getPromptResult = (f: WireFeatures) => ({
  description: z.string().optional(),
  messages: z.array(promptMessage(contentBlock(f))),
});
export const listResourcesResult = { resources: z.array(Resource), ...nextCursor };
export const listResourceTemplatesResult = {
  resourceTemplates: z.array(ResourceTemplate),
  ...nextCursor,
};
export const readResourceResult = { contents: z.array(AnyResourceContents) };
/** 2026-07-28 caps completion values at 100 in the schema; earlier revisions only in prose. */
export const completeResult = (f: WireFeatures) => ({
  completion: z.looseObject({
    values: f.modern ? z.array(z.string()).max(100) : z.array(z.string()),
    total: z.number().int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
export const discoverResult = {
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilities,
  instructions: z.string().optional(),
};
export const initializeResult = {
  protocolVersion: z.string(),
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  instructions: z.string().optional(),
};
