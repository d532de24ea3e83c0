/**
 * Host-specific copies of a JSON Schema: providers that accept only part of JSON Schema get a
 * rewritten copy, and every rewrite is listed. Pure; the input is never mutated.
 */
import { isRecord } from '@twofold/protocol/experimental';
import type { JsonSchema } from '../registry/types';
import { normalizeGemini } from './normalize-gemini';
import { normalizeOpenAiStrict } from './normalize-openai';
import { jsonCopy, mapChildren, type SchemaNode } from './pointer';
import { inlineRefs } from './refs';
import type { Report, SchemaChange } from './reports';

/**
 * The hosts a schema can be normalised for:
 * - `openai-strict`: OpenAI strict function calling / Structured Outputs (every object closed
 *   with `additionalProperties: false`, every property required, optional ones made nullable,
 *   unsupported keywords removed; local `$ref`s kept, since strict mode follows them).
 * - `gemini`: Gemini function declarations (an OpenAPI 3.0 subset: references inlined,
 *   `additionalProperties` and other unknown keywords removed, `const` → `enum`, `null` types →
 *   `nullable`).
 * - `portable`: `$schema`, `$id` and `$comment` dropped and local references inlined; the rest
 *   kept.
 *
 * @experimental
 */
export type NormalizeProfile = 'openai-strict' | 'gemini' | 'portable';

/**
 * Options of `normalizeSchema`.
 *
 * @experimental
 */
export interface NormalizeOptions {
  profile: NormalizeProfile;
  /** How often one recursive `$ref` is expanded on a path before it is cut. Default 3. */
  maxRefDepth?: number;
}

/**
 * A normalised copy and what changed.
 *
 * @experimental
 */
export interface NormalizedSchema {
  readonly schema: JsonSchema;
  readonly changes: readonly SchemaChange[];
}

const DEFAULT_REF_DEPTH = 3;

/** Drops `$schema`, `$id` and `$comment` wherever they appear. */
function dropMetadata(node: SchemaNode, path: string, report: Report): SchemaNode {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = { ...node };
  for (const keyword of ['$schema', '$id', '$comment']) {
    if (out[keyword] === undefined) continue;
    delete out[keyword];
    report({ path, keyword, action: 'removed', detail: 'metadata hosts do not need' });
  }
  return mapChildren(out, path, (child, pointer) => dropMetadata(child, pointer, report));
}

/**
 * Returns a copy of `schema` rewritten for a host (see `NormalizeProfile`) and the list of every
 * change, each with a JSON Pointer into the copy. Never mutates `schema`; never throws for an
 * unsupported construct (it is removed or approximated and reported instead).
 *
 * @experimental
 */
export function normalizeSchema(
  schema: JsonSchema,
  profile: NormalizeProfile | NormalizeOptions,
): NormalizedSchema {
  const options = typeof profile === 'string' ? { profile } : profile;
  const maxDepth = Math.max(1, options.maxRefDepth ?? DEFAULT_REF_DEPTH);
  const changes: SchemaChange[] = [];
  const report: Report = (change) => changes.push(change);
  const copy = jsonCopy(schema) as Record<string, unknown>;
  let result: Record<string, unknown>;
  switch (options.profile) {
    case 'portable': {
      const plain = dropMetadata(copy, '', report) as Record<string, unknown>;
      result = inlineRefs(plain, maxDepth, report);
      break;
    }
    case 'gemini': {
      const plain = dropMetadata(copy, '', report) as Record<string, unknown>;
      result = normalizeGemini(inlineRefs(plain, maxDepth, report), report);
      break;
    }
    case 'openai-strict':
      result = normalizeOpenAiStrict(copy, report);
      break;
    default:
      throw new TypeError(`unknown schema profile ${JSON.stringify(options.profile)}`);
  }
  return { schema: result, changes };
}
