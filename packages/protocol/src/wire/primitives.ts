/**
 * Wire primitives shared by every revision. Objects are loose (unknown keys are kept): no MCP
 * schema closes its objects, and a peer on a newer revision may add fields we must pass on.
 */
import { z } from 'zod';
import { LOGGING_LEVELS } from '../meta-keys';
import { isRecord } from '../util';

/** JSON-RPC request id: a string or a number, never null. */
export const RequestId = z.union([z.string(), z.number().int()]);
/** A progress token: a string or an integer, unique among a sender's active requests. */
export const ProgressToken = z.union([z.string(), z.number().int()]);
/** An opaque pagination cursor. `""` is a real cursor, not the end of the list. */
export const Cursor = z.string();
export const Role = z.enum(['user', 'assistant']);
export const LoggingLevel = z.enum(LOGGING_LEVELS);
/** Any JSON value (validated structurally by JSON.parse already; kept opaque here). */
export const JsonValue = z.unknown();
/** A JSON object whose values are not inspected. */
export const JsonObject = z.custom<Record<string, unknown>>(isRecord, {
  message: 'Expected an object',
});
/** A `_meta` object: open-ended, keyed by prefixed names. */
export const MetaObject = JsonObject;
export const nonNegativeInt = z.number().int().min(0);
export const unitInterval = z.number().min(0).max(1);

export const Icon = z.looseObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});

/** Self-description of a client or server (`clientInfo` / `serverInfo`). */
export const Implementation = z.looseObject({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  icons: z.array(Icon).optional(),
  websiteUrl: z.string().optional(),
});

export const Annotations = z.looseObject({
  audience: z.array(Role).optional(),
  priority: unitInterval.optional(),
  lastModified: z.string().optional(),
});

/** Fields common to named entities: tools, prompts, resources, templates. */
export const baseMetadata = {
  name: z.string(),
  title: z.string().optional(),
};
export const describedEntity = {
  ...baseMetadata,
  description: z.string().optional(),
  icons: z.array(Icon).optional(),
  _meta: MetaObject.optional(),
};

export const ErrorObject = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
