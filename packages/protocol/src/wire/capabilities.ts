/** Client and server capability objects (open-ended: unknown capabilities are kept). */
import { z } from 'zod';
import { JsonObject } from './primitives';

const listChanged = z.looseObject({ listChanged: z.boolean().optional() });
const capabilityMap = z.record(z.string(), JsonObject);

export const ClientCapabilities = z.looseObject({
  experimental: capabilityMap.optional(),
  extensions: capabilityMap.optional(),
  roots: listChanged.optional(),
  sampling: z
    .looseObject({ context: JsonObject.optional(), tools: JsonObject.optional() })
    .optional(),
  elicitation: z
    .looseObject({ form: JsonObject.optional(), url: JsonObject.optional() })
    .optional(),
  tasks: JsonObject.optional(),
});

export const ServerCapabilities = z.looseObject({
  experimental: capabilityMap.optional(),
  extensions: capabilityMap.optional(),
  logging: JsonObject.optional(),
  completions: JsonObject.optional(),
  prompts: listChanged.optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: listChanged.optional(),
  tasks: JsonObject.optional(),
});
